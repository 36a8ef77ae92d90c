/**
 * Reasoning models write their thinking into the reply: `<think>…</think>` (DeepSeek-R1, qwen3),
 * sometimes `<thinking>` or `<reasoning>`. Thinking quotes the prompt's record format and template
 * words, so it must never be read as the answer.
 */

const BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi
const CLOSE = /<\/(?:think|thinking|reasoning)>/gi
const OPEN = /<(?:think|thinking|reasoning)>/i

export interface ReplyWithoutThinking {
  /** The reply with every thinking block removed. */
  text: string
  /** Whether the reply held any thinking. */
  thought: boolean
  /** A thinking block was opened and never closed: the model stopped while thinking. */
  unfinished: boolean
}

/**
 * Removes thinking blocks wherever they are; a closing tag without its opening one (servers whose
 * chat template opens the block) ends thinking that started the reply, and an opening tag without
 * its closing one starts thinking that runs to the end.
 */
export function stripThinking(reply: string): ReplyWithoutThinking {
  let text = reply.replace(BLOCK, '\n')
  let thought = text !== reply
  const closes = [...text.matchAll(CLOSE)]
  const lastClose = closes[closes.length - 1]
  if (lastClose !== undefined) {
    text = text.slice(lastClose.index + lastClose[0].length)
    thought = true
  }
  const open = OPEN.exec(text)
  const unfinished = open !== null
  if (open !== null) {
    text = text.slice(0, open.index)
    thought = true
  }
  return { text: thought ? text.trim() : text, thought, unfinished }
}
