/**
 * The extraction conversation shared by graph and claim extraction: the first request, then up to
 * `maxGleanings` "you missed some" rounds with a Y/N check between them. Replies are returned one
 * by one so each is parsed on its own (the reference concatenates them and loses records).
 */
import { LlmError } from '../../../errors.js'
import { isBlankReply } from '../../../llm/failure.js'
import type { ChatMessage, ChatModel } from '../../../llm/types.js'

interface GleaningPrompts {
  /** The formatted first prompt. */
  first: string
  /** Asks for what the previous answer missed. */
  continuation: string
  /** Asks for a single Y (more remain) or N. */
  loopCheck: string
}

interface Conversation {
  /** The first usable reply followed by every gleaning reply. */
  replies: string[]
  calls: number
  /** First replies that were unusable and asked again, with why. */
  retried: Array<{ reply: string; problem: string }>
  /** Replies still blank after their retries, read as "" (no records). */
  blank: number
  /**
   * Every answer in the order asked (retries and Y/N checks included) with its model cache key;
   * the key is undefined for an answer the cache did not hold or store (no cache, a blank reply).
   */
  answers: Array<{ key: string | undefined; content: string }>
}

/** What makes a first reply unusable (refusal, echo, no records), and how to ask again once. */
interface FirstReplyCheck {
  problem: (reply: string) => string | undefined
  retryPrompt: string
}

/** One unit's conversation: its prompts and how its replies are judged. */
interface ConversationRun {
  prompts: GleaningPrompts
  maxGleanings: number
  /** Lets the conversation stop early when a gleaning reply adds nothing (no loop check, no more rounds). */
  hasRecords: (reply: string) => boolean
  check: FirstReplyCheck
  /** A reply still blank after its retries reads as no records; false: it fails the unit (strict). */
  blankAsEmpty: boolean
  signal?: AbortSignal
}

/** The first reply was unusable, and so was the answer to asking again. */
class UnusableReplyError extends Error {
  constructor(
    readonly problem: string,
    readonly reply: string,
  ) {
    super(`the model's reply was unusable twice (${problem})`)
    this.name = 'UnusableReplyError'
  }
}

/** Runs the conversation. */
async function runGleanings(chat: ChatModel, run: ConversationRun): Promise<Conversation> {
  const { prompts, check } = run
  let blank = 0
  const answers: Conversation['answers'] = []
  const ask = async (messages: readonly ChatMessage[]): Promise<string> => {
    try {
      const reply = await chat.complete({ messages, ...(run.signal ? { signal: run.signal } : {}) })
      answers.push({ key: reply.cacheKey, content: reply.content })
      return reply.content
    } catch (error) {
      if (!run.blankAsEmpty || !isBlankReply(error)) throw error
      answers.push({ key: undefined, content: '' })
      blank++
      return ''
    }
  }
  const history: ChatMessage[] = [{ role: 'user', content: prompts.first }]
  let first = await ask(history)
  let calls = 1
  const retried: Conversation['retried'] = []
  // A blank answer already had its retries: asking again or gleaning would only repeat it.
  if (blank > 0) return { replies: [first], calls, retried, blank, answers }
  history.push({ role: 'assistant', content: first })
  const problem = check.problem(first)
  if (problem !== undefined) {
    // Asked again once, in the same conversation (a new request, so a cached bad reply is not served again).
    retried.push({ reply: first, problem })
    history.push({ role: 'user', content: check.retryPrompt })
    first = await ask(history)
    calls++
    if (blank > 0) return { replies: [first], calls, retried, blank, answers }
    history.push({ role: 'assistant', content: first })
    const again = check.problem(first)
    if (again !== undefined) throw new UnusableReplyError(again, first)
  }
  const replies = [first]
  for (let round = 0; round < run.maxGleanings; round++) {
    history.push({ role: 'user', content: prompts.continuation })
    const reply = await ask(history)
    calls++
    replies.push(reply)
    history.push({ role: 'assistant', content: reply })
    // A blank gleaning reply has no records, so it ends the gleaning here.
    if (round === run.maxGleanings - 1 || !run.hasRecords(reply)) break
    // The Y/N exchange is not kept in the history, as in the reference; a blank answer is a no.
    const answer = await ask([...history, { role: 'user', content: prompts.loopCheck }])
    calls++
    if (!isYes(answer)) break
  }
  return { replies, calls, retried, blank, answers }
}

/** `Y`, `Yes`, `y.` or `**Y**` count as yes; anything else ends the gleaning. */
function isYes(answer: string): boolean {
  return /^[\s*"'`]*y(?:es)?\b/i.test(answer)
}

/** A text unit whose conversation failed: the model's calls failed, or its reply was unusable twice. */
export interface UnitFailure {
  textUnitId: string
  reason: string
  error: LlmError
}

export type UnitConversation =
  | { ok: true; conversation: Conversation; retried: string[] }
  | { ok: false; failure: UnitFailure; retried: string[] }

/**
 * runGleanings for one text unit, with the unit's failure (calls failing after retries, a reply
 * unusable even when asked again) returned rather than thrown, so the caller counts it against the
 * failure budget (or lists it under --allow-partial). Graph and claim extraction both use it.
 */
export async function converseForUnit(
  textUnitId: string,
  chat: ChatModel,
  run: ConversationRun,
): Promise<UnitConversation> {
  try {
    const conversation = await runGleanings(chat, run)
    return { ok: true, conversation, retried: conversation.retried.map((r) => r.problem) }
  } catch (error) {
    if (error instanceof UnusableReplyError) {
      const failure = new LlmError(error.message, { model: chat.model, attempts: 2, cause: error })
      return { ok: false, failure: { textUnitId, reason: error.message, error: failure }, retried: [error.problem] }
    }
    if (!(error instanceof LlmError)) throw error
    return { ok: false, failure: { textUnitId, reason: error.message, error }, retried: [] }
  }
}
