/**
 * The library API. The CLI is a thin layer over these functions.
 * @module graphrag
 */
export {
  loadConfig,
  validateSettings,
  type LoadConfigOptions,
  type LoadedConfig,
  type Settings,
} from './config/index.js'
export { initProject, type InitOptions, type InitResult } from './config/init-project.js'
export { renderSettingsTemplate } from './config/template.js'
export * from './errors.js'
export { planIndex, runIndex, type IndexPlan, type IndexRunResult, type RunIndexOptions } from './index/run/runner.js'
export { planUpdate, runUpdate, type DocumentChanges, type UpdatePlan, type UpdateResult } from './index/run/update.js'
export { RecordingReporter, type Reporter } from './index/run/reporter.js'
export { PIPELINES, type IndexMethod } from './index/plan/pipelines.js'
export * from './model/index.js'
export { MemoryTableStore, ParquetTableStore, decodeParquet, encodeParquet, type TableStore } from './storage/index.js'
export { hierarchicalLeiden } from './graph/leiden/index.js'
export * from './query/index.js'
export { VERSION } from './version.js'
