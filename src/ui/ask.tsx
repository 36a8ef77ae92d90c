/**
 * Ask: a question box, the search method, the answer as it streams, citations that open the cited
 * passage, hybrid search's ranking table, and the conversation so far sent as `history`.
 */
import { useRef, useState } from 'preact/hooks'
import { api, apiJson, errorOf, postJson } from './api.js'
import { readSse } from './sse.js'
import { Answer } from './answer.js'
import type { Citation } from './citations.js'
import { RankingTable, type RankingRow } from './ranking.js'
import { SourcePanel, type OpenedSource } from './source.js'

const METHODS = [
  ['local', 'Local: entities, relationships and their passages'],
  ['global', 'Global: community reports, for questions about the whole corpus'],
  ['drift', 'DRIFT: local search widened with community follow-ups'],
  ['basic', 'Basic: plain vector search over the text'],
  ['graph', 'Graph: paths through the knowledge graph'],
  ['hybrid', 'Hybrid: vector + keyword + graph ranking, cited passages'],
  ['lazy', 'Lazy: relevance tests down the communities under a budget (works on an offline index)'],
] as const
type Method = (typeof METHODS)[number][0]

type ContextRecord = Record<string, unknown> & { id?: unknown }

interface HybridSource {
  label: string
  id: string
  kind: string
  reason: string
}

interface QueryResult {
  response?: string
  answer?: string
  context?: Record<string, ContextRecord[]>
  sources?: HybridSource[]
  warnings?: unknown[]
  usage?: { calls?: number; promptTokens?: number; completionTokens?: number; costUsd?: number | null }
}

interface Turn {
  question: string
  method: Method
  answer: string
  done: boolean
  result?: QueryResult
  error?: string
  ranking?: RankingRow[] | string
}

export function AskPage() {
  const [method, setMethod] = useState<Method>('local')
  const [question, setQuestion] = useState('')
  const [turns, setTurns] = useState<Turn[]>([])
  const [opened, setOpened] = useState<OpenedSource | undefined>()
  const running = useRef<AbortController | undefined>(undefined)
  const busy = turns.some((t) => !t.done)

  const update = (index: number, change: Partial<Turn>) =>
    setTurns((all) => all.map((t, i) => (i === index ? { ...t, ...change } : t)))

  async function ask(event: Event): Promise<void> {
    event.preventDefault()
    const text = question.trim()
    if (text === '' || busy) return
    // Earlier answered turns are the conversation the method sees (failed ones are left out).
    const history = turns
      .filter((t) => t.done && t.error === undefined)
      .flatMap((t) => [
        { role: 'user', content: t.question },
        { role: 'assistant', content: t.answer },
      ])
    const index = turns.length
    setTurns([...turns, { question: text, method, answer: '', done: false }])
    setQuestion('')
    const controller = new AbortController()
    running.current = controller
    let answer = ''
    try {
      const response = await api(
        '/query',
        postJson({ question: text, method, stream: true, history }, controller.signal),
      )
      if (!response.ok) throw await errorOf(response)
      for await (const message of readSse(response)) {
        if (message.event === 'error') throw new Error((JSON.parse(message.data) as { error: string }).error)
        if (message.event === 'result') {
          const result = JSON.parse(message.data) as QueryResult
          answer = result.response ?? result.answer ?? answer
          update(index, { answer, result, done: true })
        } else {
          answer += (JSON.parse(message.data) as { chunk: string }).chunk
          update(index, { answer })
        }
      }
      update(index, { done: true })
      if (method === 'hybrid') void loadRanking(index, text)
    } catch (error) {
      const stopped = controller.signal.aborted
      update(index, { done: true, error: stopped ? 'stopped' : (error as Error).message })
    } finally {
      running.current = undefined
    }
  }

  async function loadRanking(index: number, text: string): Promise<void> {
    try {
      const preview = await apiJson<{ ranking: RankingRow[] }>('/ranking/preview', postJson({ question: text }))
      update(index, { ranking: preview.ranking })
    } catch (error) {
      update(index, { ranking: (error as Error).message })
    }
  }

  function open(turn: Turn, citation: Citation): void {
    setOpened(resolveCitation(turn, citation))
  }

  return (
    <div class="ask">
      <section class="conversation">
        {turns.length === 0 && (
          <p class="hint">
            Ask a question about the indexed documents. Citations in the answer open the passage they cite; later
            questions see the conversation so far.
          </p>
        )}
        {turns.map((turn, i) => (
          <article class="turn" key={i} data-done={String(turn.done)}>
            <h3 class="question">
              {turn.question} <span class="badge">{turn.method}</span>
            </h3>
            <div class="answer">
              <Answer text={turn.answer} onCite={(citation) => open(turn, citation)} />
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
        ))}
        <form class="ask-form" onSubmit={ask}>
          <textarea
            id="question"
            rows={3}
            placeholder="Ask a question…"
            value={question}
            onInput={(e) => setQuestion(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) void ask(e)
            }}
          />
          <div class="row">
            <select id="method" value={method} onChange={(e) => setMethod(e.currentTarget.value as Method)}>
              {METHODS.map(([value, label]) => (
                <option value={value} key={value}>
                  {label}
                </option>
              ))}
            </select>
            {busy ? (
              <button type="button" onClick={() => running.current?.abort()}>
                Stop
              </button>
            ) : (
              <button type="submit" id="ask" disabled={question.trim() === ''}>
                Ask
              </button>
            )}
            <button
              type="button"
              class="secondary"
              disabled={busy || turns.length === 0}
              onClick={() => {
                setTurns([])
                setOpened(undefined)
              }}
            >
              New conversation
            </button>
          </div>
        </form>
      </section>
      {opened !== undefined && <SourcePanel source={opened} onClose={() => setOpened(undefined)} />}
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

/** What a citation points at: a record of the answer's context, or (hybrid) a passage fetched by its id. */
function resolveCitation(turn: Turn, citation: Citation): OpenedSource {
  if (citation.table === 'hybrid') {
    const source = turn.result?.sources?.find((s) => s.label === citation.id)
    if (source === undefined) return { title: citation.label, missing: 'not among the answer’s sources' }
    if (source.kind === 'text_unit')
      return { title: `${citation.label}: text unit`, meta: `ranked by ${source.reason}`, textUnit: source.id }
    return { title: `${citation.label}: ${source.kind}`, meta: `ranked by ${source.reason}`, record: { ...source } }
  }
  const records = turn.result?.context?.[citation.table]
  const record = records?.find((r) => String(r.id) === citation.id)
  if (record === undefined)
    return { title: citation.label, missing: `record ${citation.id} is not in the context the answer was given` }
  // An entity is shown with the passages it was extracted from.
  const entity = citation.table === 'entities' && typeof record.entity === 'string' ? record.entity : undefined
  return { title: citation.label, record, ...(entity === undefined ? {} : { entity }) }
}
