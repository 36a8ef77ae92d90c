/**
 * Runs queries for the server with the same search functions as `graphrag query`, behind two LRU
 * caches: question → embedding and question + query settings → answer.
 */
import { loadConfig, type LoadedConfig } from '../config/index.js'
import type { EmbeddingModel } from '../llm/types.js'
import { queryResponseJson } from '../query/response-json.js'
import { isDegraded } from '../query/hybrid/citations.js'
import { seedItems } from '../query/hybrid/seed-fields.js'
import {
  basicSearchStream,
  driftSearchStream,
  globalSearchStream,
  graphSearchStream,
  hybridSearchStream,
  lazySearchStream,
  localSearchStream,
  SEARCH_DEFAULTS,
  type ConversationTurn,
  type AnswerOnly,
  type ExternalPassage,
  type SearchMethod,
  type SearchOptions,
  type SearchResult,
  type SearchStream,
  type UsageSummary,
} from '../query/index.js'
import { LruCache } from './lru.js'

export interface QueryRequest {
  question: string
  method: SearchMethod
  communityLevel: number
  responseType: string
  dynamicCommunitySelection: boolean
  history: ConversationTurn[]
  /** Hybrid search only: passages from outside the index, citable in the answer. */
  externalContext: ExternalPassage[]
  /** Lazy search only: the relevance-test budget (default lazy_search.relevance_budget). */
  budget?: number
  /** Settings of `<method>_search` for this query only (`top_k`, `max_context_tokens` of POST /query). */
  overrides?: Record<string, number>
  /** The context or the prompt instead of the answer (`context_only`, `prompt_only`). */
  only?: AnswerOnly
}

/** What a query is served as: the JSON of `query --json`, plus the answer text and usage for the chat protocol. */
export interface ServedAnswer {
  json: Record<string, unknown>
  response: string
  usage: UsageSummary
}

export interface Project {
  root: string
  configFile?: string
  env?: Readonly<Record<string, string | undefined>>
}

const STREAMS: Record<SearchMethod, (o: SearchOptions) => SearchStream> = {
  local: localSearchStream,
  global: globalSearchStream,
  drift: driftSearchStream,
  basic: basicSearchStream,
  graph: graphSearchStream,
  hybrid: hybridSearchStream,
  lazy: lazySearchStream,
}

export class QueryService {
  readonly embeddings: LruCache<number[]>
  readonly answers: LruCache<ServedAnswer>

  constructor(
    private readonly project: Project,
    sizes: { embeddings: number; answers: number },
  ) {
    this.embeddings = new LruCache(sizes.embeddings)
    this.answers = new LruCache(sizes.answers)
  }

  /** Settings are read again for each query, so edits to settings.yaml apply without a restart. */
  config(): LoadedConfig {
    return loadConfig({ root: this.project.root, configFile: this.project.configFile, env: this.project.env })
  }

  /** The cached answer for this request under the settings in force, if any. */
  cached(request: QueryRequest): { key: string; answer: ServedAnswer | undefined } {
    const key = this.answerKey(request)
    return { key, answer: this.answers.get(key) }
  }

  /** Starts the search; `onChunk` sees the answer as it streams. A complete, failure-free answer is cached under `key`. */
  async run(
    request: QueryRequest,
    key: string,
    signal: AbortSignal,
    onChunk?: (chunk: string) => Promise<void> | void,
  ): Promise<ServedAnswer> {
    const settings = withOverrides(this.config().settings, request)
    const stream = STREAMS[request.method]({
      query: request.question,
      settings,
      communityLevel: request.communityLevel,
      responseType: request.responseType,
      dynamicCommunitySelection: request.dynamicCommunitySelection,
      history: request.history,
      externalContext: request.externalContext,
      budget: request.budget,
      ...(request.only === undefined ? {} : { only: request.only }),
      signal,
      decorateEmbedder: (embedder) => cachingEmbedder(embedder, this.embeddings),
    })
    for await (const chunk of stream) await onChunk?.(chunk)
    const answer = served(await stream.result)
    if (answer.usage.failures === 0 && !signal.aborted) this.answers.set(key, answer)
    return answer
  }

  /**
   * Both caches' figures, ours and the seed design's (`*_cache_size`, `*_cache_keys`). The keys are
   * shown as the questions they hold, at most CACHE_KEYS_SHOWN each, clipped: the answer cache's
   * real keys embed the query settings, which are not for a client to see.
   */
  cacheStats(): Record<string, unknown> {
    const embeddings = this.embeddings.stats()
    const answers = this.answers.stats()
    return {
      embeddings,
      answers,
      embedding_cache_size: embeddings.size,
      answer_cache_size: answers.size,
      embedding_cache_keys: this.embeddings.keys(CACHE_KEYS_SHOWN).map((key) => clipKey(embeddedText(key))),
      answer_cache_keys: this.answers.keys(CACHE_KEYS_SHOWN).map((key) => clipKey(answeredQuestion(key))),
    }
  }

  /** Hybrid search's ranking with its signals and bonuses, asking no model for an answer (`query --explain`). */
  async rankingPreview(question: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    const loaded = this.config().settings
    // No chat call at all: the question's entities come from the offline noun-phrase extractor.
    const settings = { ...loaded, hybrid_search: { ...loaded.hybrid_search, query_entities: 'noun_phrases' as const } }
    const decorateEmbedder = (embedder: EmbeddingModel) => cachingEmbedder(embedder, this.embeddings)
    const result = await hybridSearchStream({ query: question, settings, explain: true, signal, decorateEmbedder })
      .result
    const h = result.hybrid!
    return {
      question,
      query_entities: 'noun_phrases',
      ranking: h.ranking,
      // The seed design's clients read the rows as `items`, with its reason names.
      items: seedItems(h.ranking),
      explain_text: h.explainText,
      entities: h.entities,
      warnings: h.warnings,
      degraded: isDegraded(h.warnings),
      usage: result.usage,
    }
  }

  private answerKey(request: QueryRequest): string {
    const { settings } = this.config()
    const section = settings[`${request.method}_search`]
    // Any change to the method's settings or the models makes a different key (stale answers are never served).
    const parts = [
      request,
      section,
      settings.completion_models,
      settings.embedding_models,
      settings.output_storage,
      SEARCH_DEFAULTS.seed,
    ]
    return JSON.stringify(parts)
  }
}

/** The settings with this request's values for its method's section (the answer key holds them too). */
function withOverrides(settings: LoadedConfig['settings'], request: QueryRequest): LoadedConfig['settings'] {
  const overrides = request.overrides ?? {}
  if (Object.keys(overrides).length === 0) return settings
  const key = `${request.method}_search` as const
  return { ...settings, [key]: { ...settings[key], ...overrides } }
}

const CACHE_KEYS_SHOWN = 20
const CACHE_KEY_CHARS = 80

const clipKey = (text: string) => (text.length <= CACHE_KEY_CHARS ? text : `${text.slice(0, CACHE_KEY_CHARS - 1)}…`)

/** The text of an embedding cache key (`model id NUL model NUL text`). */
const embeddedText = (key: string) => key.split('\u0000').slice(2).join('\u0000')

/** The question of an answer cache key (the JSON of [request, settings…]). */
function answeredQuestion(key: string): string {
  const [request] = JSON.parse(key) as [QueryRequest]
  return `${request.method}: ${request.question}`
}

function served(result: SearchResult): ServedAnswer {
  const json = queryResponseJson(result) as unknown as Record<string, unknown>
  return { json, response: result.response, usage: result.usage }
}

/** An embedder that answers repeated texts from the LRU and embeds only the others. */
function cachingEmbedder(inner: EmbeddingModel, cache: LruCache<number[]>): EmbeddingModel {
  return {
    get id() {
      return inner.id
    },
    get model() {
      return inner.model
    },
    countTokens: (text) => inner.countTokens(text),
    async embed(texts, options) {
      const keys = texts.map((text) => `${inner.id}\u0000${inner.model}\u0000${text}`)
      const found = keys.map((key) => cache.get(key))
      const missing = found.flatMap((vector, i) => (vector === undefined ? [i] : []))
      if (missing.length > 0) {
        const vectors = await inner.embed(
          missing.map((i) => texts[i]!),
          options,
        )
        missing.forEach((i, j) => {
          found[i] = vectors[j]!
          cache.set(keys[i]!, vectors[j]!)
        })
      }
      return found as number[][]
    },
  }
}
