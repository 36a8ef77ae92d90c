/** Shapes shared by the four search methods. */
import type { ContextRecords } from '../context/table-format.js'
import type { ConversationTurn } from '../context/history.js'
import type { HybridReport } from './hybrid.js'
import type { LazyReport } from '../lazy/report.js'

/** What a search used: the context tables as records and the exact context text sent. */
export interface SearchContext {
  records: ContextRecords
  text: string
  /** Problems the search worked around (graph search without chunk_edges), shown to the user. */
  warnings?: string[]
  /** Hybrid search only: sources, citations, warnings and the ranking. */
  hybrid?: HybridReport
  /** Lazy search only: sub-questions, relevance tests along the community path, claims, citations, usage per model. */
  lazy?: LazyReport
}

/**
 * A search runs as an async generator: it yields answer chunks and returns its context, so the
 * streaming API forwards chunks and the non-streaming API joins them; both see the same context.
 */
export type SearchRun = AsyncGenerator<string, SearchContext, undefined>

export interface QuestionInput {
  query: string
  responseType: string
  history: readonly ConversationTurn[]
  /** Turns of `history` kept (local_search.conversation_history_max_turns, the only such setting). */
  historyMaxTurns: number
  /** Answer with the context or the whole prompt instead of asking the model (local, basic and graph search). */
  only?: AnswerOnly
}

/** `context`: the context text the model would read; `prompt`: the messages it would be sent. */
export type AnswerOnly = 'context' | 'prompt'
