/** Settings: loading, validation and the schema every other layer reads. */
export { loadConfig, type LoadConfigOptions, type LoadedConfig } from './load.js'
export { validateSettings } from './validate.js'
export type { Settings } from './schema.js'
