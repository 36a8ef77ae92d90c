/**
 * The query library API: localSearch, globalSearch, driftSearch, basicSearch, graphSearch (and streaming
 * twins), each taking settings (or a project root) and a question and returning
 * `{response, context, usage}`; runQuery dispatches by method for the CLI.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { loadConfig, type Settings } from '../config/index.js'
import type { ChatModel, EmbeddingModel } from '../llm/types.js'
import { QueryError } from '../errors.js'
import { SILENT_LOGGER, type Logger } from '../logger.js'
import type { ConversationTurn } from './context/history.js'
import type { ContextRecords } from './context/table-format.js'
import { loadTables, requireGraph, TABLES_BY_METHOD } from './load-index.js'
import { pinReadableIndex } from '../storage/generation-pins.js'
import { chatWithSignal, embedderWithSignal } from './abortable.js'
import { createExtraChat, createQueryModels, type QueryModels, SEARCH_SECTION } from './models.js'
import { checkQuestion } from './question.js'
import { seededRng } from './rng.js'
import type { ExternalPassage } from './hybrid/context.js'
import type { HybridReport } from './search/hybrid.js'
import type { LazyReport } from './lazy/report.js'
import type { AnswerOnly, QuestionInput, SearchRun } from './search/types.js'
import type { SearchServices } from './services.js'
import { sharedRun, type SharedRun } from './shared-run.js'
import { MeteredChat, UsageMeter, type UsageSummary } from './usage.js'
import { type OpenVectorStore, openQueryVectors } from './vectors.js'

import { ANSWER_ONLY_METHODS, type SearchMethod } from './methods.js'

export type { SearchMethod } from './methods.js'
export { SEARCH_METHODS } from './methods.js'

export interface SearchOptions {
  query: string
  /** Loaded settings; when absent they are loaded from `root` (default: the current directory). */
  settings?: Settings
  root?: string
  configFile?: string
  /** Folder holding the index tables (default output_storage.base_dir); its lancedb/ is used when present. */
  dataDir?: string
  /** Community hierarchy level (default 2). */
  communityLevel?: number
  dynamicCommunitySelection?: boolean
  /** Target length and format of the answer (default "Multiple Paragraphs"). */
  responseType?: string
  history?: readonly ConversationTurn[]
  /** Randomness for global search's shuffle (default: seeded, so answers are reproducible). */
  rng?: () => number
  logger?: Logger
  /** Models to use instead of the configured ones (library users with their own clients). */
  models?: { chat?: ChatModel; embedder?: EmbeddingModel }
  /** Aborting it cancels the search's model calls (a server whose client went away). */
  signal?: AbortSignal
  /** Wraps the embedding model, e.g. with a cache of question embeddings (the server's LRU). */
  decorateEmbedder?: (embedder: EmbeddingModel) => EmbeddingModel
  /** Hybrid search: rank and print the ranking table, no answer from the model. */
  explain?: boolean
  /** Hybrid search: passages from outside the index, added to the context and citable. */
  externalContext?: readonly ExternalPassage[]
  /** Lazy search: the relevance-test budget (default lazy_search.relevance_budget). */
  budget?: number
  /** Lazy search: refine the question into sub-questions first (default true). */
  subqueries?: boolean
  /** Local, basic and graph search: answer with the context, or the whole prompt, instead of asking the model. */
  only?: AnswerOnly
  /** Where vector searches run (default: LanceDB in this thread; `graphrag query` uses a thread of its own). */
  openVectorStore?: OpenVectorStore
}

export interface SearchResult {
  method: SearchMethod
  response: string
  /** The context tables the answer was based on, as records. */
  context: ContextRecords
  /** The exact context text sent to the model. */
  contextText: string
  usage: UsageSummary
  /** Problems the search worked around (graph search without chunk_edges); empty when none. */
  warnings: string[]
  /** Hybrid search: sources, cited references, question entities, warnings and the ranking. */
  hybrid?: HybridReport
  /** Lazy search: what was tested and found relevant along the community path, claims, citations, usage per model. */
  lazy?: LazyReport
}

/**
 * A streaming search, run once: iterating yields the answer chunks (another iteration replays
 * them), and `result` alone runs the search to its end. Breaking out of the only loop before
 * `result` was asked for abandons the search; `result` then rejects with a QueryError.
 */
export type SearchStream = SharedRun<SearchResult>

/** Defaults of the search options (the CLI's flags default to the same values). */
export const SEARCH_DEFAULTS = Object.freeze({
  communityLevel: 2,
  dynamicCommunitySelection: false,
  responseType: 'Multiple Paragraphs',
  // The reference seeds its global-search shuffle with 86; we keep the seed.
  seed: 86,
})

export const localSearch = (o: SearchOptions) => searchStream('local', o).result
export const globalSearch = (o: SearchOptions) => searchStream('global', o).result
export const driftSearch = (o: SearchOptions) => searchStream('drift', o).result
export const basicSearch = (o: SearchOptions) => searchStream('basic', o).result
export const localSearchStream = (o: SearchOptions) => searchStream('local', o)
export const globalSearchStream = (o: SearchOptions) => searchStream('global', o)
export const driftSearchStream = (o: SearchOptions) => searchStream('drift', o)
export const basicSearchStream = (o: SearchOptions) => searchStream('basic', o)
export const graphSearch = (o: SearchOptions) => searchStream('graph', o).result
export const graphSearchStream = (o: SearchOptions) => searchStream('graph', o)
export const hybridSearch = (o: SearchOptions) => searchStream('hybrid', o).result
export const hybridSearchStream = (o: SearchOptions) => searchStream('hybrid', o)
export const lazySearch = (o: SearchOptions) => searchStream('lazy', o).result
export const lazySearchStream = (o: SearchOptions) => searchStream('lazy', o)

export interface RunQueryOptions extends SearchOptions {
  method: SearchMethod
  /** Called with each chunk as it arrives (streaming output). */
  onChunk?: (chunk: string) => void
}

export async function runQuery(options: RunQueryOptions): Promise<SearchResult> {
  const stream = searchStream(options.method, options)
  for await (const chunk of stream) options.onChunk?.(chunk)
  return stream.result
}

function searchStream(method: SearchMethod, options: SearchOptions): SearchStream {
  return sharedRun(() => execute(method, options))
}

async function* execute(method: SearchMethod, options: SearchOptions): AsyncGenerator<string, SearchResult, undefined> {
  checkQuestion(options.query)
  checkAnswerOnly(method, options.only)
  const loaded =
    options.settings === undefined
      ? loadConfig({ root: options.root ?? '.', configFile: options.configFile })
      : undefined
  const settings = options.settings ?? loaded!.settings
  // After a crash in the middle of publishing a new index, the complete one waits beside output/.
  // One generation from the first table to the last vector, even if an update publishes meanwhile.
  const readable = await pinReadableIndex(
    resolve(options.dataDir ?? settings.output_storage.base_dir),
    settings.vector_store.db_uri,
  )
  const dataDir = readable.dataDir
  const readableSettings = {
    ...settings,
    vector_store: { ...settings.vector_store, db_uri: readable.dbUri ?? settings.vector_store.db_uri },
  }
  let close = (): void => {}
  try {
    const opened = openServices(readableSettings, method, dataDir, options, loaded?.apiKeyOrigins ?? {})
    close = opened.close
    const services = opened.services
    const run = await startRun(method, readableSettings, dataDir, options, services)
    let response = ''
    let next = await run.next()
    while (!next.done) {
      response += next.value
      yield next.value
      next = await run.next()
    }
    const warnings = next.value.warnings ?? []
    const hybrid = next.value.hybrid === undefined ? {} : { hybrid: next.value.hybrid }
    const lazy = next.value.lazy === undefined ? {} : { lazy: next.value.lazy }
    return {
      method,
      response,
      context: next.value.records,
      contextText: next.value.text,
      usage: services.meter.summary(),
      warnings,
      ...hybrid,
      ...lazy,
    }
  } finally {
    close()
    await readable.release()
  }
}

function checkAnswerOnly(method: SearchMethod, only: AnswerOnly | undefined): void {
  if (only !== undefined && !ANSWER_ONLY_METHODS.includes(method))
    throw new QueryError(
      `${only} only: available with ${ANSWER_ONLY_METHODS.join(', ')} search (${method} search asks the model more than once)`,
    )
}

/** What every method's start reads: the question and its parameters, the settings, the tables' folder and the models. */
interface StartRequest {
  input: QuestionInput
  level: number
  settings: Settings
  dataDir: string
  options: SearchOptions
  services: SearchServices
}

async function startRun(
  method: SearchMethod,
  settings: Settings,
  dataDir: string,
  options: SearchOptions,
  services: SearchServices,
): Promise<SearchRun> {
  const input = {
    query: options.query,
    responseType: options.responseType ?? SEARCH_DEFAULTS.responseType,
    history: options.history ?? [],
    historyMaxTurns: settings.local_search.conversation_history_max_turns,
    ...(options.only === undefined ? {} : { only: options.only }),
  }
  const level = options.communityLevel ?? SEARCH_DEFAULTS.communityLevel
  return STARTERS[method]({ input, level, settings, dataDir, options, services })
}

// Each method's modules are imported when it runs, so a query loads only its own search.
const STARTERS: Readonly<Record<SearchMethod, (request: StartRequest) => Promise<SearchRun>>> = {
  async local({ input, level, settings, dataDir, services }) {
    const [{ prepareLocalIndex, runLocalSearch }, tables] = await Promise.all([
      import('./search/local.js'),
      loadTables(dataDir, TABLES_BY_METHOD.local, ['covariates']),
    ])
    requireGraph('local', tables)
    return runLocalSearch(input, prepareLocalIndex(tables, level), settings.local_search, services)
  },
  async global({ input, level, settings, dataDir, options, services }) {
    const [{ runGlobalSearch }, tables] = await Promise.all([
      import('./search/global.js'),
      loadTables(dataDir, TABLES_BY_METHOD.global),
    ])
    requireGraph('global', tables)
    const params = {
      ...input,
      communityLevel: level,
      dynamicCommunitySelection: options.dynamicCommunitySelection ?? SEARCH_DEFAULTS.dynamicCommunitySelection,
    }
    return runGlobalSearch(params, tables, settings.global_search, services)
  },
  async drift({ input, level, settings, dataDir, services }) {
    // DRIFT local steps do not read claims (as in the reference).
    const [{ prepareLocalIndex }, { runDriftSearch }, tables] = await Promise.all([
      import('./search/local.js'),
      import('./search/drift.js'),
      loadTables(dataDir, TABLES_BY_METHOD.drift),
    ])
    requireGraph('drift', tables)
    return runDriftSearch(input, prepareLocalIndex(tables, level), settings.drift_search, services)
  },
  async basic({ input, settings, dataDir, services }) {
    const [{ runBasicSearch }, tables] = await Promise.all([
      import('./search/basic.js'),
      loadTables(dataDir, TABLES_BY_METHOD.basic),
    ])
    return runBasicSearch(input, tables.text_units, settings.basic_search, services)
  },
  graph: startGraphSearch,
  hybrid: startHybridSearch,
  lazy: startLazySearch,
}

async function startGraphSearch({ input, settings, dataDir, options, services }: StartRequest): Promise<SearchRun> {
  const [{ runGraphSearch }, { loadChunkEdges }, tables] = await Promise.all([
    import('./search/graph.js'),
    import('./chunk-edges.js'),
    loadTables(dataDir, TABLES_BY_METHOD.basic),
  ])
  const filtered = Object.keys(settings.graph_search.filters).length > 0
  const sources = {
    dbUri: vectorDbUri(settings, dataDir, options),
    fullText: settings.hybrid_search,
    documents: filtered ? await (await import('./search/graph-seeds.js')).loadDocuments(dataDir) : undefined,
  }
  const edges = await loadChunkEdges(dataDir)
  return runGraphSearch(input, tables.text_units, edges, settings.graph_search, services, sources)
}

async function startHybridSearch({ input, settings, dataDir, options, services }: StartRequest): Promise<SearchRun> {
  const hybridOptions = {
    explain: options.explain ?? false,
    external: options.externalContext ?? [],
    dbUri: vectorDbUri(settings, dataDir, options),
  }
  const [{ runHybridSearch }, { loadHybridTables }] = await Promise.all([
    import('./search/hybrid.js'),
    import('./hybrid/tables.js'),
  ])
  return runHybridSearch(input, await loadHybridTables(dataDir), settings, services, hybridOptions)
}

async function startLazySearch({ input, settings, dataDir, options, services }: StartRequest): Promise<SearchRun> {
  const [{ runLazySearch }, { loadLazyTables }] = await Promise.all([
    import('./search/lazy.js'),
    import('./lazy/tables.js'),
  ])
  const lazyOptions = {
    budget: options.budget ?? settings.lazy_search.relevance_budget,
    subqueries: options.subqueries ?? true,
    explain: options.explain ?? false,
    dbUri: vectorDbUri(settings, dataDir, options),
    ...lazyModels(settings, services, options),
  }
  return runLazySearch(input, await loadLazyTables(dataDir), settings, services, lazyOptions)
}

/** Lazy search's answer model and relevance model (the answer model unless relevance_model_id names another). */
function lazyModels(settings: Settings, services: SearchServices, options: SearchOptions) {
  const s = settings.lazy_search
  const answerModel = { model: services.chat?.model.model ?? 'none', price: services.meter.chatPrice }
  if (s.relevance_model_id === null || s.relevance_model_id === s.completion_model_id || services.chat === undefined)
    return { answerModel, relevance: { chat: services.chat, model: answerModel } }
  const extra = createExtraChat(settings, s.relevance_model_id, 'lazy_search.relevance_model_id')
  const chat = options.signal === undefined ? extra.chat : chatWithSignal(extra.chat, options.signal)
  services.meter.priceStep('relevance', extra.price)
  return {
    answerModel,
    relevance: { chat: new MeteredChat(chat, services.meter), model: { model: chat.model, price: extra.price } },
  }
}

/** --data moves the vector store too when the folder has one (the reference keeps db_uri). */
function vectorDbUri(settings: Settings, dataDir: string, options: SearchOptions): string {
  const local = join(dataDir, 'lancedb')
  return options.dataDir !== undefined && existsSync(local) ? local : settings.vector_store.db_uri
}

function openServices(
  settings: Settings,
  method: SearchMethod,
  dataDir: string,
  options: SearchOptions,
  keyOrigins: Readonly<Record<string, string>>,
): { services: SearchServices; close: () => void } {
  const models = signalled(
    createQueryModels(settings, SEARCH_SECTION[method], options.models ?? {}, keyOrigins),
    options,
  )
  const meter = new UsageMeter(models.price, models.embeddingPrice)
  const vectors = openQueryVectors(settings, vectorDbUri(settings, dataDir, options), options.openVectorStore)
  const services: SearchServices = {
    chat: models.chat === undefined ? undefined : new MeteredChat(models.chat, meter),
    embedder: models.embedder,
    vectors,
    meter,
    countTokens: models.countTokens,
    concurrency: settings.concurrent_requests,
    rng: options.rng ?? seededRng(SEARCH_DEFAULTS.seed),
    logger: options.logger ?? SILENT_LOGGER,
  }
  return { services, close: () => vectors.close() }
}

/** The models with the caller's signal on every call and its embedder decoration applied. */
function signalled(models: QueryModels, options: SearchOptions): QueryModels {
  const embedder = options.decorateEmbedder?.(models.embedder) ?? models.embedder
  const signal = options.signal
  if (signal === undefined) return { ...models, embedder }
  return {
    ...models,
    chat: models.chat && chatWithSignal(models.chat, signal),
    embedder: embedderWithSignal(embedder, signal),
  }
}

export type { ConversationTurn } from './context/history.js'
export { parseHistory } from './context/history.js'
export type { ContextRecords } from './context/table-format.js'
export type { UsageSummary } from './usage.js'
export type { HybridReport } from './search/hybrid.js'
export type { LazyReport } from './lazy/report.js'
export type { AnswerOnly } from './search/types.js'
export type { ExternalPassage, HybridSource } from './hybrid/context.js'
export type { HybridWarning } from './hybrid/citations.js'
