/**
 * What both transports (client.ts over the openai package, ai-sdk-transport.ts over the AI SDK) do
 * with a reply's tokens and an embedding reply's vectors, so the two meter and check alike.
 */
import { AttemptFailure } from './failure.js'
import type { ChatCall, ChatReply, EmbedCall, EmbedReply } from './transport.js'

type CountTokens = (text: string) => number

/** The tokens a server stated for a reply; either may be missing (some OpenAI-compatible servers send none). */
export interface StatedTokens {
  prompt?: number | null | undefined
  completion?: number | null | undefined
}

/** A reply's tokens: as stated, else counted here (each message plus a few tokens of chat framing). */
export function replyTokens(
  call: ChatCall,
  text: string,
  stated: StatedTokens | undefined,
  countTokens: CountTokens,
): ChatReply['usage'] {
  return {
    promptTokens: stated?.prompt ?? call.messages.reduce((n, m) => n + 3 + countTokens(m.content), 3),
    completionTokens: stated?.completion ?? countTokens(text),
  }
}

/** Adds a reply's tokens to the call's meter (a stream's once it ends, whatever the end). */
export function meterReply(call: ChatCall, text: string, stated: StatedTokens | undefined, countTokens: CountTokens) {
  const usage = replyTokens(call, text, stated, countTokens)
  call.meter.tokens(usage.promptTokens, usage.completionTokens)
  return usage
}

/**
 * An embedding reply's vectors (in input order), checked and metered: a reply without exactly one
 * non-empty vector per input is a retryable invalid reply; tokens as stated, else counted here.
 */
export function checkedEmbedding(
  call: EmbedCall,
  vectors: readonly unknown[],
  statedTokens: number | null | undefined,
  countTokens: CountTokens,
): EmbedReply {
  if (vectors.length !== call.input.length || vectors.some((v) => !Array.isArray(v) || v.length === 0))
    throw new AttemptFailure(`embedding reply has ${vectors.length} vectors for ${call.input.length} inputs`, {
      kind: 'invalid_reply',
      retryable: true,
    })
  call.meter.tokens(statedTokens ?? call.input.reduce((n, t) => n + countTokens(t), 0), 0)
  return { vectors: vectors as number[][] }
}
