/** What a search step needs besides the index tables: models, vectors, meters, limits. */
import type { EmbeddingModel } from '../llm/types.js'
import type { Logger } from '../logger.js'
import type { MeteredChat, UsageMeter } from './usage.js'
import type { QueryVectors } from './vectors.js'

export interface SearchServices {
  /** undefined when no completion model is configured (offline): local/basic return the context. */
  chat: MeteredChat | undefined
  embedder: EmbeddingModel
  vectors: QueryVectors
  meter: UsageMeter
  /** Token counter of the chat model (o200k_base when offline). */
  countTokens: (text: string) => number
  /** Parallel LLM calls (concurrent_requests). */
  concurrency: number
  /** Injected randomness (global search shuffles with it); seeded for reproducible answers. */
  rng: () => number
  logger: Logger
}
