/** Settings: loading, validation and the schema every other layer reads. */
export { CONFIG_FILE_NAMES, findConfigFile, loadConfig, type LoadConfigOptions, type LoadedConfig } from './load.js'
export { validateSettings, type ValidationResult } from './validate.js'
export { SETTINGS, type ModelSettings, type RawSettings, type Settings } from './schema.js'
