/**
 * Issue 46 item 6: the openai-package client and the AI SDK transport meter replies and check
 * embedding replies with one set of functions (they had a copy each).
 */
import { describe, expect, it } from 'vitest'
import { AttemptFailure } from '../../src/llm/failure.js'
import { checkedEmbedding, meterReply, replyTokens } from '../../src/llm/reply-tokens.js'
import type { ChatCall, EmbedCall } from '../../src/llm/transport.js'
import { UsageMeter } from '../../src/llm/usage.js'

/** One token per word: easy to count by eye. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length

function chatCall(meter = new UsageMeter(undefined)): ChatCall {
  const messages = [
    { role: 'system' as const, content: 'be brief' },
    { role: 'user' as const, content: 'who rang the bell' },
  ]
  return { messages, responseFormat: undefined, params: {}, meter, noCache: false, signal: undefined }
}

describe('reply tokens', () => {
  it('takes what the server stated, else counts each message plus 3 tokens of framing (and 3 for the reply)', () => {
    const call = chatCall()
    expect(replyTokens(call, 'the captain did', { prompt: 40, completion: 5 }, words)).toEqual({
      promptTokens: 40,
      completionTokens: 5,
    })
    // (2 + 3) + (4 + 3) + 3 prompt tokens; the reply's 3 words.
    expect(replyTokens(call, 'the captain did', undefined, words)).toEqual({ promptTokens: 15, completionTokens: 3 })
    expect(replyTokens(call, 'the captain did', { prompt: null, completion: 9 }, words)).toEqual({
      promptTokens: 15,
      completionTokens: 9,
    })
  })

  it('meterReply adds them to the call meter', () => {
    const meter = new UsageMeter(undefined)
    meterReply(chatCall(meter), 'yes', undefined, words)
    meterReply(chatCall(meter), 'no', { prompt: 100, completion: 2 }, words)
    expect(meter.snapshot()).toMatchObject({ promptTokens: 115, completionTokens: 3 })
  })
})

describe('checkedEmbedding', () => {
  const call = (meter: UsageMeter): EmbedCall =>
    ({ input: ['a b', 'c d e'], meter, signal: undefined }) as unknown as EmbedCall

  it('returns one vector per input and meters the stated tokens, else the counted ones', () => {
    const meter = new UsageMeter(undefined)
    expect(checkedEmbedding(call(meter), [[1], [2]], 7, words).vectors).toEqual([[1], [2]])
    checkedEmbedding(call(meter), [[1], [2]], undefined, words)
    expect(meter.snapshot()).toMatchObject({ promptTokens: 12, completionTokens: 0 })
  })

  it('a short reply or an empty vector is a retryable invalid reply, metered as nothing', () => {
    const meter = new UsageMeter(undefined)
    for (const vectors of [[[1]], [[1], []], [[1], 'x']]) {
      const error = (() => {
        try {
          checkedEmbedding(call(meter), vectors, 3, words)
        } catch (e) {
          return e
        }
      })()
      expect(error).toBeInstanceOf(AttemptFailure)
      expect(error).toMatchObject({ kind: 'invalid_reply', retryable: true })
      expect((error as Error).message).toMatch(/^embedding reply has \d vectors for 2 inputs$/)
    }
    expect(meter.snapshot()).toMatchObject({ promptTokens: 0 })
  })
})
