import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../src/errors.js'
import { createChatModel } from '../../src/llm/index.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { FaultPicker, type FaultKind } from '../support/fake-llm/faults.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions, HELLO } from './helpers.js'

/** A seed whose fault sequence is: fail, then succeed. */
function failOnceSeed(kind: FaultKind): number {
  return Array.from({ length: 200 }, (_, i) => i + 1).find((seed) => {
    const picker = new FaultPicker({ rate: 0.5, kinds: [kind], seed })
    return picker.next() === kind && picker.next() === undefined
  })!
}

const GARBAGE: FaultKind[] = ['empty_choices', 'null_content', 'html', 'truncated', 'malformed']

describe('invalid model replies', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({
      responders: [({ messages }) => (messages[0]?.content === 'map-me' ? '{"points": []}' : undefined)],
    })
  })
  afterAll(() => fake.close())

  it.each(GARBAGE)('%s: retried, counted as a retry, and only the good reply is cached', async (kind) => {
    fake.setFaults({ rate: 0.5, kinds: [kind], seed: failOnceSeed(kind) })
    const cache = new MemoryKeyValueStore()
    const meter = new UsageMeter(undefined)
    const reply = await createChatModel(fakeOptions(fake), { cache, meter }).complete({ messages: HELLO })
    fake.setFaults(undefined)
    expect(reply.content).toBe('Hello World')
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 1, failures: 0 })
    const [key] = await cache.keys()
    expect(JSON.parse((await cache.get(key!))!).reply.content).toBe('Hello World')
  })

  it.each(GARBAGE)('%s every time: fails as an LlmError counted as a failure, and nothing is cached', async (kind) => {
    fake.setFaults({ rate: 1, kinds: [kind] })
    const cache = new MemoryKeyValueStore()
    const meter = new UsageMeter(undefined)
    const error = await createChatModel(fakeOptions(fake), { cache, meter })
      .complete({ messages: HELLO })
      .catch((e: unknown) => e)
    fake.setFaults(undefined)
    expect(error).toBeInstanceOf(LlmError)
    expect((error as Error).message).toMatch(/invalid reply|4 attempts/)
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 3, failures: 1 })
    expect(await cache.keys()).toHaveLength(0)
  })

  it('an empty streamed reply is retried before anything is handed out', async () => {
    fake.setFaults({ rate: 0.5, kinds: ['null_content'], seed: failOnceSeed('null_content') })
    const meter = new UsageMeter(undefined)
    let text = ''
    for await (const delta of createChatModel(fakeOptions(fake), { meter }).stream({ messages: HELLO })) text += delta
    fake.setFaults(undefined)
    expect(text).toBe('Hello World')
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 1, failures: 0 })
  })

  it('a JSON object lacking a required key is retried like one that does not parse', async () => {
    fake.setFaults({ rate: 0.5, kinds: ['wrong_shape'], seed: failOnceSeed('wrong_shape') })
    const meter = new UsageMeter(undefined)
    const cache = new MemoryKeyValueStore()
    const model = createChatModel(fakeOptions(fake), { meter, cache })
    const format = { type: 'json_object' as const, required: ['points'] }
    const structured = await model.complete({ messages: [{ role: 'user', content: 'map-me' }], responseFormat: format })
    fake.setFaults(undefined)
    expect(structured.json).toEqual({ points: [] })
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 1, failures: 0 })
    expect(fake.requests.at(-1)!.body).toMatchObject({ response_format: { type: 'json_object' } })
  })
})
