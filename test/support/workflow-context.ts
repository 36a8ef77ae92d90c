/**
 * A real WorkflowContext for workflow tests: settings loaded from YAML in a temporary project,
 * Parquet tables in its output folder, recording stats and progress. Pass `models` (e.g. from
 * createModelRegistry(...).forWorkflow(name)) for workflows that call LLMs.
 */
import { setMaxListeners } from 'node:events'
import { loadConfig } from '../../src/config/load.js'
import type { Settings } from '../../src/config/schema.js'
import { SILENT_LOGGER } from '../../src/logger.js'
import { FileKeyValueStore, type KeyValueStore } from '../../src/storage/key-value-store.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { WorkflowStatsRecorder } from '../../src/index/run/run-stats.js'
import type { ModelProvider, WorkflowContext } from '../../src/index/workflow.js'
import { testdir } from './testdir.js'

/** A provider for workflows that must not call any model. */
const NO_MODELS: ModelProvider = {
  chat(id) {
    throw new Error(`unexpected chat model request: ${id}`)
  },
  embedding(id) {
    throw new Error(`unexpected embedding model request: ${id}`)
  },
  hasChat: () => false,
}

/** Like the runner's run signal: many queued requests listen to it at once. */
function unlimitedSignal(): AbortSignal {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  return controller.signal
}

export interface TestContext {
  ctx: WorkflowContext
  root: string
  settings: Settings
  tables: ParquetTableStore
  stats: WorkflowStatsRecorder
  progress: Array<{ label: string; total: number; done: number }>
}

export async function createTestContext(
  options: {
    settingsYaml?: string
    files?: Record<string, string | Uint8Array>
    root?: string
    models?: ModelProvider | ((settings: Settings, cache: KeyValueStore) => ModelProvider)
    env?: Record<string, string | undefined>
    now?: Date
  } = {},
): Promise<TestContext> {
  const root =
    options.root ?? (await testdir({ 'settings.yaml': options.settingsYaml ?? '', ...(options.files ?? {}) }))
  const { settings } = loadConfig({ root, env: options.env ?? {} })
  const tables = new ParquetTableStore(settings.output_storage.base_dir)
  const cache = new FileKeyValueStore(settings.cache.storage.base_dir)
  const stats = new WorkflowStatsRecorder(() => {})
  const progress: TestContext['progress'] = []
  const models = typeof options.models === 'function' ? options.models(settings, cache) : (options.models ?? NO_MODELS)
  const now = options.now ?? new Date('2026-01-15T12:00:00Z')
  const ctx: WorkflowContext = {
    settings,
    tables,
    previousTables: undefined,
    changes: undefined,
    cache,
    models,
    log: SILENT_LOGGER,
    stats,
    clock: { now: () => now },
    signal: unlimitedSignal(),
    progress(label, total) {
      const entry = { label, total, done: 0 }
      progress.push(entry)
      return {
        tick: (n = 1) => {
          entry.done += n
        },
        done: () => {
          entry.done = total
        },
      }
    },
  }
  return { ctx, root, settings, tables, stats, progress }
}
