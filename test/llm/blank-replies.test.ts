/**
 * A blank reply (empty or whitespace-only content, a stream without a word) is an invalid reply
 * like the others (retried, never cached), but recognisable after its retries (isBlankReply), on
 * the OpenAI client and on the AI SDK transport alike, so extraction can read it as "no records".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isBlankReply } from '../../src/llm/failure.js'
import { createChatModel } from '../../src/llm/index.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { startFakeProvider, type FakeProvider } from '../support/fake-llm/protocols.js'
import { fakeOptions } from './helpers.js'

const ask = (content: string) => [{ role: 'user' as const, content }]

/** `blank-me` gets a blank line back; anything else the built-in answers. */
const blankResponder = {
  responders: [
    ({ messages }: { messages: Array<{ content: string }> }) =>
      messages[0]?.content === 'blank-me' ? ' \n' : undefined,
  ],
}

describe('blank replies', () => {
  let fake: FakeLlm
  let anthropic: FakeProvider
  beforeAll(async () => {
    fake = await startFakeLlm(blankResponder)
    anthropic = await startFakeProvider('anthropic', blankResponder)
  })
  afterAll(async () => {
    await fake.close()
    await anthropic.close()
  })

  it('is retried, never cached, and recognised as blank once the retries are used up', async () => {
    const cache = new MemoryKeyValueStore()
    const before = fake.requests.length
    const error = await createChatModel(fakeOptions(fake), { cache })
      .complete({ messages: ask('blank-me') })
      .catch((e: unknown) => e)
    expect(isBlankReply(error)).toBe(true)
    expect(fake.requests.length - before).toBe(4)
    expect(await cache.keys()).toHaveLength(0)
  })

  it('is recognised in a stream and through the AI SDK transport', async () => {
    const streamed = async () => {
      for await (const _ of createChatModel(fakeOptions(fake)).stream({ messages: ask('blank-me') }));
    }
    expect(isBlankReply(await streamed().catch((e: unknown) => e))).toBe(true)
    const options = fakeOptions(anthropic.inner, {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-test',
      apiBase: anthropic.baseUrl,
    })
    const error = await createChatModel(options)
      .complete({ messages: ask('blank-me') })
      .catch((e: unknown) => e)
    expect(isBlankReply(error)).toBe(true)
  })

  it('is not confused with other invalid replies (null content, no choices)', async () => {
    for (const kind of ['null_content', 'empty_choices'] as const) {
      fake.setFaults({ rate: 1, kinds: [kind] })
      const error = await createChatModel(fakeOptions(fake))
        .complete({ messages: ask('hello') })
        .catch((e: unknown) => e)
      fake.setFaults(undefined)
      expect(error).toBeInstanceOf(Error)
      expect(isBlankReply(error)).toBe(false)
    }
  })
})
