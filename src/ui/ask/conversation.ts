/** The conversation: each question streamed from POST /query, its turn updated as the answer arrives. */
import { useRef, useState } from 'preact/hooks'
import { api, apiJson, errorOf, postJson } from '../api.js'
import type { RankingRow } from '../ranking.js'
import { readSse } from '../sse.js'
import { queryBody, type AskParams } from './params.js'
import type { QueryResult, Turn } from './turn.js'

export interface Conversation {
  turns: Turn[]
  busy: boolean
  ask: (question: string, params: AskParams) => Promise<void>
  stop: () => void
  clear: () => void
}

export function useConversation(): Conversation {
  const [turns, setTurns] = useState<Turn[]>([])
  const running = useRef<AbortController | undefined>(undefined)
  const busy = turns.some((t) => !t.done)
  const update = (index: number, change: Partial<Turn>) =>
    setTurns((all) => all.map((t, i) => (i === index ? { ...t, ...change } : t)))

  async function ask(question: string, params: AskParams): Promise<void> {
    const index = turns.length
    const body = queryBody(question, params, history(turns, params.historyTurns))
    setTurns([...turns, { question, method: params.method, answer: '', done: false }])
    const controller = new AbortController()
    running.current = controller
    try {
      const response = await api('/query', postJson(body, controller.signal))
      if (!response.ok) throw await errorOf(response)
      await readAnswer(response, (change) => update(index, change))
      update(index, { done: true })
      if (params.method === 'hybrid') void loadRanking(question, (change) => update(index, change))
    } catch (error) {
      const stopped = controller.signal.aborted
      update(index, { done: true, error: stopped ? 'stopped' : (error as Error).message })
    } finally {
      running.current = undefined
    }
  }
  return { turns, busy, ask, stop: () => running.current?.abort(), clear: () => setTurns([]) }
}

/** The last `count` answered turns as history (failed ones are left out). */
function history(turns: Turn[], count: number): Array<{ role: string; content: string }> {
  const answered = turns.filter((t) => t.done && t.error === undefined)
  return answered.slice(Math.max(0, answered.length - count)).flatMap((t) => [
    { role: 'user', content: t.question },
    { role: 'assistant', content: t.answer },
  ])
}

/** Reads the SSE stream: chunks extend the answer, `result` replaces it with the final one. */
async function readAnswer(response: Response, update: (change: Partial<Turn>) => void): Promise<void> {
  let answer = ''
  for await (const message of readSse(response)) {
    if (message.event === 'error') throw new Error((JSON.parse(message.data) as { error: string }).error)
    if (message.event === 'result') {
      const result = JSON.parse(message.data) as QueryResult
      answer = result.response ?? result.answer ?? answer
      update({ answer, result, done: true })
    } else {
      answer += (JSON.parse(message.data) as { chunk: string }).chunk
      update({ answer })
    }
  }
}

async function loadRanking(question: string, update: (change: Partial<Turn>) => void): Promise<void> {
  try {
    const preview = await apiJson<{ ranking: RankingRow[] }>('/ranking/preview', postJson({ question }))
    update({ ranking: preview.ranking })
  } catch (error) {
    update({ ranking: (error as Error).message })
  }
}
