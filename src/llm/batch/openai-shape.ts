/**
 * Lines of the other providers' batches are turned into the OpenAI shapes the client checks
 * (chatReplyFrom), so every provider's answers are validated by the same code: the request body a
 * line starts from is the OpenAI chat body, and its answer becomes a chat completion.
 */

interface ChatBody {
  model?: unknown
  messages?: unknown
  response_format?: unknown
  [param: string]: unknown
}

export interface PlainMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export function messagesOf(body: ChatBody): PlainMessage[] {
  return Array.isArray(body.messages) ? (body.messages as PlainMessage[]) : []
}

/** A numeric call parameter (temperature, max_tokens …), undefined when absent. */
export function numberParam(body: ChatBody, ...keys: string[]): number | undefined {
  for (const key of keys) if (typeof body[key] === 'number') return body[key] as number
  return undefined
}

export function stopSequences(body: ChatBody): string[] | undefined {
  const stop = body.stop
  return typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.map(String) : undefined
}

/** The chat completion a synchronous OpenAI call would have returned for this text and usage. */
export function asChatCompletion(
  text: string | undefined,
  usage: { prompt: number | undefined; completion: number | undefined },
): Record<string, unknown> {
  return {
    object: 'chat.completion',
    choices: text === undefined ? [] : [{ index: 0, message: { role: 'assistant', content: text } }],
    ...(usage.prompt === undefined || usage.completion === undefined
      ? {}
      : { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion } }),
  }
}

/** Drops undefined values, so a request body carries only the parameters that were set. */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
