/** BatchQueue against the fake OpenAI Batch API: splitting at the provider's limits, saved lines, asking again. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAiBatchApi } from '../../src/llm/batch/openai.js'
import { BatchesPending, BatchQueue } from '../../src/llm/batch/queue.js'
import { BatchState } from '../../src/llm/batch/state.js'
import type { BatchApi, BatchLine } from '../../src/llm/batch/types.js'
import { StorageError } from '../../src/errors.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

const line = (key: string, text: string): BatchLine => ({
  key,
  kind: 'chat',
  body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: text }] },
})

describe('BatchQueue', () => {
  let fake: FakeLlm
  let api: BatchApi
  beforeAll(async () => {
    fake = await startFakeLlm({ batch: { pollsBeforeDone: 2 } })
    api = openAiBatchApi({ provider: 'openai', apiBase: fake.baseUrl, apiKey: 'sk-q', apiVersion: undefined })
  })
  afterAll(async () => {
    await fake?.close()
  })

  const queue = (store: MemoryKeyValueStore, limits: Partial<BatchApi> = {}, noWait = false) =>
    new BatchQueue({
      api: { ...api, ...limits },
      state: new BatchState(store, 'batches/test'),
      modelRef: 'completion_models.test',
      pollMs: 2,
      collectMs: 10,
      noWait,
    })

  it('collects concurrent requests into one batch, split at the provider’s line limit', async () => {
    const before = fake.batchApi.batches.length
    const q = queue(new MemoryKeyValueStore(), { maxLines: 2 })
    const results = await Promise.all(['a', 'b', 'c'].map((k) => q.request(line(k, `say ${k}`), undefined)))
    expect(results.every((r) => r.ok)).toBe(true)
    // The two batches are submitted side by side, in either order.
    const batches = fake.batchApi.batches.slice(before).map((b) => b.customIds)
    expect(batches.sort((x, y) => y.length - x.length)).toEqual([['a', 'b'], ['c']])
    expect(q.progress()).toEqual({ submitted: 2, pending: 0, done: 2, linesSent: 3, linesAnswered: 3 })
  })

  it('a later process takes a collected line from the saved state without a new batch; asked again, the key goes to a new batch', async () => {
    const store = new MemoryKeyValueStore()
    const first = await queue(store).request(line('saved-1', 'remember me'), undefined)
    const before = fake.batchApi.batches.length
    const later = queue(store)
    expect(await later.request(line('saved-1', 'remember me'), undefined)).toEqual(first)
    expect(fake.batchApi.batches.length).toBe(before)
    // The same request again in that process (an unusable answer being retried) is sent anew.
    await later.request(line('saved-1', 'remember me'), undefined)
    expect(fake.batchApi.batches.length).toBe(before + 1)
  })

  it('--no-wait: a batch still running at its first poll stops the caller with BatchesPending; a later queue collects it', async () => {
    const store = new MemoryKeyValueStore()
    const stopped = await queue(store, {}, true)
      .request(line('nw-1', 'later'), undefined)
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(stopped).toBeInstanceOf(BatchesPending)
    const id = fake.batchApi.batches.at(-1)!.id
    expect((stopped as Error).message).toContain(id)
    const before = fake.batchApi.batches.length
    expect((await queue(store).request(line('nw-1', 'later'), undefined)).ok).toBe(true)
    expect(fake.batchApi.batches.length).toBe(before)
  })

  it('a damaged state file stops with one error naming it, rather than paying for its batches again', async () => {
    const store = new MemoryKeyValueStore()
    await store.set('state.json', '{"version": 1, "batches": [')
    const error = await queue(store)
      .request(line('d-1', 'x'), undefined)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(StorageError)
    expect((error as Error).message).toMatch(/^batches\/test\/state\.json is not valid JSON .*delete batches\/test/)
  })

  it('a saved batch the provider does not know (404) is forgotten and its request submitted again', async () => {
    const store = new MemoryKeyValueStore()
    await store.set(
      'state.json',
      JSON.stringify({ version: 1, batches: [{ id: 'batch_gone', keys: ['g-1'], submitted: '2026-01-01T00:00:00Z' }] }),
    )
    const before = fake.batchApi.batches.length
    const q = queue(store)
    const result = await q.request(line('g-1', 'again'), undefined)
    // The first answer is "unanswered" (retryable): the retry layer asks again, which submits a new batch.
    expect(result).toEqual({
      ok: false,
      status: undefined,
      message: expect.stringContaining('batch_gone'),
      retryable: true,
    })
    expect(JSON.parse((await store.get('state.json'))!).batches).toEqual([])
    expect((await q.request(line('g-1', 'again'), undefined)).ok).toBe(true)
    expect(fake.batchApi.batches.slice(before).map((b) => b.customIds)).toEqual([['g-1']])
  })
})
