/**
 * The extraction conversation shared by graph and claim extraction: the first request, then up to
 * `maxGleanings` "you missed some" rounds with a Y/N check between them. Replies are returned one
 * by one so each is parsed on its own (the reference concatenates them and loses records).
 */
import type { ChatMessage, ChatModel } from '../../../llm/types.js'

export interface GleaningPrompts {
  /** The formatted first prompt. */
  first: string
  /** Asks for what the previous answer missed. */
  continuation: string
  /** Asks for a single Y (more remain) or N. */
  loopCheck: string
}

export interface Conversation {
  /** The first reply followed by every gleaning reply. */
  replies: string[]
  calls: number
}

/**
 * Runs the conversation. `hasRecords(reply)` lets the caller stop early when a gleaning reply
 * adds nothing, which saves the loop check and further rounds.
 */
export async function runGleanings(
  chat: ChatModel,
  prompts: GleaningPrompts,
  maxGleanings: number,
  hasRecords: (reply: string) => boolean,
  signal?: AbortSignal,
): Promise<Conversation> {
  const history: ChatMessage[] = [{ role: 'user', content: prompts.first }]
  const ask = async (messages: readonly ChatMessage[]) =>
    (await chat.complete({ messages, ...(signal ? { signal } : {}) })).content
  const first = await ask(history)
  const replies = [first]
  let calls = 1
  history.push({ role: 'assistant', content: first })
  for (let round = 0; round < maxGleanings; round++) {
    history.push({ role: 'user', content: prompts.continuation })
    const reply = await ask(history)
    calls++
    replies.push(reply)
    history.push({ role: 'assistant', content: reply })
    if (round === maxGleanings - 1 || !hasRecords(reply)) break
    // The Y/N exchange is not kept in the history, as in the reference.
    const answer = await ask([...history, { role: 'user', content: prompts.loopCheck }])
    calls++
    if (!isYes(answer)) break
  }
  return { replies, calls }
}

/** `Y`, `Yes`, `y.` or `**Y**` count as yes; anything else ends the gleaning. */
function isYes(answer: string): boolean {
  return /^[\s*"'`]*y(?:es)?\b/i.test(answer)
}
