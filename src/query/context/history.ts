/**
 * Conversation history: earlier turns shown to the model before the data. The newest turns are
 * kept (the reference keeps the oldest) and the block is capped at a share of the context budget
 * so a long history cannot starve the data tables.
 */
import { QueryError } from '../../errors.js'
import { renderRow, renderTable } from './table-format.js'

export interface ConversationTurn {
  role: 'user' | 'assistant'
  content: string
}

/** Share of the context budget the history may take. */
export const HISTORY_BUDGET_SHARE = 0.25

const HISTORY_HEADER = ['turn', 'content'] as const

/** Validates parsed `--history` JSON: an array of {role: user|assistant, content}. */
export function parseHistory(value: unknown, source: string): ConversationTurn[] {
  if (!Array.isArray(value))
    throw new QueryError(`${source}: expected a JSON array of {"role": "user"|"assistant", "content": "..."}`)
  return value.map((turn: unknown, i) => {
    const t = turn as { role?: unknown; content?: unknown } | null
    if (
      t === null ||
      typeof t !== 'object' ||
      (t.role !== 'user' && t.role !== 'assistant') ||
      typeof t.content !== 'string'
    ) {
      throw new QueryError(`${source}: turn ${i + 1} must be {"role": "user"|"assistant", "content": string}`)
    }
    return { role: t.role, content: t.content }
  })
}

/** The last `maxTurns` question/answer turns, oldest first. */
function recentTurns(history: readonly ConversationTurn[], maxTurns: number): ConversationTurn[][] {
  const groups: ConversationTurn[][] = []
  for (const turn of history) {
    if (turn.role === 'user' || groups.length === 0) groups.push([turn])
    else groups[groups.length - 1]!.push(turn)
  }
  return maxTurns <= 0 ? [] : groups.slice(-maxTurns)
}

/** Recent user questions, newest first: added to the text used for entity mapping. */
export function recentQuestions(history: readonly ConversationTurn[], maxTurns: number): string[] {
  return recentTurns(history, maxTurns)
    .flat()
    .filter((t) => t.role === 'user')
    .map((t) => t.content)
    .reverse()
}

/** The history block, newest turns first in, shown oldest first; '' when empty. */
export function historyBlock(
  history: readonly ConversationTurn[],
  maxTurns: number,
  budget: number,
  countTokens: (text: string) => number,
): { text: string; records: Record<string, string>[]; tokens: number } {
  const turns = recentTurns(history, maxTurns)
  if (turns.length === 0) return { text: '', records: [], tokens: 0 }
  const head = renderTable('Conversation History', HISTORY_HEADER, [])
  let tokens = countTokens(head)
  const kept: ConversationTurn[][] = []
  for (const group of [...turns].reverse()) {
    const cost = group.reduce((n, t) => n + countTokens(renderRow([t.role, t.content])), 0)
    if (tokens + cost > budget) break
    tokens += cost
    kept.unshift(group)
  }
  if (kept.length === 0) return { text: '', records: [], tokens: 0 }
  const flat = kept.flat()
  return {
    text: head + flat.map((t) => renderRow([t.role, t.content])).join(''),
    records: flat.map((t) => ({ turn: t.role, content: t.content })),
    tokens,
  }
}

/** What a passage search (basic, graph) does with the conversation before it ranks passages. */
export interface PassageHistory {
  /** The history block, within its share of the budget. */
  block: ReturnType<typeof historyBlock>
  /** The question and the recent questions, embedded together so a follow-up finds its subject; '' for no question. */
  searchText: string
  /** Tokens left for the passages after the block and the blank line that follows it. */
  room: number
}

export function passageHistory(
  query: string,
  history: readonly ConversationTurn[],
  maxTurns: number,
  maxContextTokens: number,
  countTokens: (text: string) => number,
): PassageHistory {
  const block = historyBlock(history, maxTurns, Math.floor(maxContextTokens * HISTORY_BUDGET_SHARE), countTokens)
  const searchText = query.trim() === '' ? '' : [query, ...recentQuestions(history, maxTurns)].join('\n')
  // The blank line between the history and the passages costs a token too.
  const room = maxContextTokens - (block.text === '' ? 0 : block.tokens + countTokens('\n'))
  return { block, searchText, room }
}
