/**
 * Runs queries for the server with the same search functions as `graphrag query`, behind two LRU
 * caches: question → embedding and question + query settings → answer.
 */
import { loadConfig, type LoadedConfig } from '../config/index.js'
import type { EmbeddingModel } from '../llm/types.js'
import { queryJson, type QueryJson } from '../query/command.js'
import {
  basicSearchStream,
  driftSearchStream,
  globalSearchStream,
  graphSearchStream,
  localSearchStream,
  SEARCH_DEFAULTS,
  type ConversationTurn,
  type SearchMethod,
  type SearchOptions,
  type SearchStream,
} from '../query/index.js'
import { LruCache } from './lru.js'

export interface QueryRequest {
  question: string
  method: SearchMethod
  communityLevel: number
  responseType: string
  dynamicCommunitySelection: boolean
  history: ConversationTurn[]
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
}

export class QueryService {
  readonly embeddings: LruCache<number[]>
  readonly answers: LruCache<QueryJson>

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
  cached(request: QueryRequest): { key: string; answer: QueryJson | undefined } {
    const key = this.answerKey(request)
    return { key, answer: this.answers.get(key) }
  }

  /** Starts the search; `onChunk` sees the answer as it streams. A complete, failure-free answer is cached under `key`. */
  async run(request: QueryRequest, key: string, signal: AbortSignal, onChunk?: (chunk: string) => Promise<void> | void): Promise<QueryJson> {
    const { settings } = this.config()
    const stream = STREAMS[request.method]({
      query: request.question,
      settings,
      communityLevel: request.communityLevel,
      responseType: request.responseType,
      dynamicCommunitySelection: request.dynamicCommunitySelection,
      history: request.history,
      signal,
      decorateEmbedder: (embedder) => cachingEmbedder(embedder, this.embeddings),
    })
    for await (const chunk of stream) await onChunk?.(chunk)
    const answer = queryJson(await stream.result)
    if (answer.usage.failures === 0 && !signal.aborted) this.answers.set(key, answer)
    return answer
  }

  private answerKey(request: QueryRequest): string {
    const { settings } = this.config()
    const section = settings[`${request.method}_search`]
    // Any change to the method's settings or the models makes a different key (stale answers are never served).
    const parts = [request, section, settings.completion_models, settings.embedding_models, settings.output_storage, SEARCH_DEFAULTS.seed]
    return JSON.stringify(parts)
  }
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
        const vectors = await inner.embed(missing.map((i) => texts[i]!), options)
        missing.forEach((i, j) => {
          found[i] = vectors[j]!
          cache.set(keys[i]!, vectors[j]!)
        })
      }
      return found as number[][]
    },
  }
}
