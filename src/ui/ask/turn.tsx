/** One question and its answer: streamed text with citations, usage, hybrid's ranking table. */
import { Answer } from '../answer.js'
import type { Citation } from '../citations.js'
import { RankingTable, type RankingRow } from '../ranking.js'
import type { Method } from './params.js'

type ContextRecord = Record<string, unknown> & { id?: unknown }

interface HybridSource {
  label: string
  id: string
  kind: string
  reason: string
}

export interface QueryResult {
  response?: string
  answer?: string
  context?: Record<string, ContextRecord[]>
  sources?: HybridSource[]
  warnings?: unknown[]
  usage?: { calls?: number; promptTokens?: number; completionTokens?: number; costUsd?: number | null }
}

export interface Turn {
  question: string
  method: Method
  answer: string
  done: boolean
  result?: QueryResult
  error?: string
  ranking?: RankingRow[] | string
}

export function TurnView({ turn, onCite }: { turn: Turn; onCite: (citation: Citation) => void }) {
  const offline = turn.done ? offlineAnswer(turn.answer) : undefined
  return (
    <article class="turn" data-done={String(turn.done)}>
      <h3 class="question">
        {turn.question} <span class="badge">{turn.method}</span>
      </h3>
      <div class="answer">
        <Answer text={offline ?? turn.answer} onCite={onCite} />
        {offline !== undefined && <ContextSources records={turn.result?.context?.sources ?? []} onCite={onCite} />}
        {!turn.done && <span class="cursor">▍</span>}
      </div>
      {turn.error !== undefined && <p class="error">{turn.error}</p>}
      {turn.result?.usage !== undefined && <Usage usage={turn.result.usage} />}
      {turn.ranking !== undefined &&
        (typeof turn.ranking === 'string' ? (
          <p class="error">ranking: {turn.ranking}</p>
        ) : (
          <RankingTable rows={turn.ranking} />
        ))}
    </article>
  )
}

/**
 * An offline answer (no completion model: local, basic and graph search write the best-matching
 * passages, then the whole ranked context under `# Context`): its passages only. The context is
 * offered as a list of its sources, each opening its passage, instead of filling the card.
 */
function offlineAnswer(answer: string): string | undefined {
  if (!answer.startsWith('_No completion model is configured')) return undefined
  const at = answer.search(/^# Context$/m)
  return at < 0 ? undefined : answer.slice(0, at).trimEnd()
}

function ContextSources({ records, onCite }: { records: ContextRecord[]; onCite: (citation: Citation) => void }) {
  if (records.length === 0) return null
  return (
    <div class="context-sources" id="context-sources">
      <h5>Ranked sources ({records.length})</h5>
      {records.map((r) => (
        <button
          type="button"
          class="citation"
          key={String(r.id)}
          onClick={() => onCite({ table: 'sources', id: String(r.id), label: `Source ${String(r.id)}` })}
        >
          Source {String(r.id)}
        </button>
      ))}
    </div>
  )
}

function Usage({ usage }: { usage: NonNullable<QueryResult['usage']> }) {
  const tokens = (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0)
  const cost = typeof usage.costUsd === 'number' ? ` · $${usage.costUsd.toFixed(4)}` : ''
  return (
    <p class="meta">
      {usage.calls ?? 0} model calls · {tokens} tokens{cost}
    </p>
  )
}
