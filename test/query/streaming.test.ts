import { afterAll, beforeAll, expect, it } from 'vitest'
import { QueryError } from '../../src/errors.js'
import { basicSearchStream, driftSearchStream } from '../../src/query/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject } from './support/dulce.js'

const QUESTION = 'Who works at Dulce base?'

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

describeShared('streaming search API on the Dulce reference index', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION })
  })
  afterAll(async () => fake?.close())

  const options = (extra = '') => {
    fake.requests.length = 0
    return {
      settings: fakeProject(fake.baseUrl, extra).settings,
      dataDir: sharedPath('reference', 'msgr-v3-dulce'),
      query: QUESTION,
    }
  }
  const chats = () => fake.requests.filter((r) => r.kind !== 'embedding')

  it('basic: streams the answer in chunks and resolves the same result', async () => {
    const stream = basicSearchStream(options())
    const chunks = await collect(stream)
    expect(chunks.length).toBeGreaterThan(1)
    const result = await stream.result
    expect(chunks.join('')).toBe(result.response)
    expect(result.response).toContain('[Data: Sources')
    expect(chats().map((r) => [r.kind, r.stream])).toEqual([['basic_search', true]])
  })

  it('drift: streams the reduce answer in chunks after the (unstreamed) steps', async () => {
    const stream = driftSearchStream(options('drift_search:\n  n_depth: 1\n  drift_k_followups: 2\n  primer_folds: 1'))
    const chunks = await collect(stream)
    expect(chunks.length).toBeGreaterThan(1)
    const result = await stream.result
    expect(chunks.join('')).toBe(result.response)
    expect(result.response).toContain('## Answer')
    const streamed = chats().filter((r) => r.stream)
    expect(streamed.map((r) => r.kind)).toEqual(['drift_reduce'])
    expect(chats().at(-1)!.kind).toBe('drift_reduce')
  })

  it('runs once: `result` alone completes the search; later iterations replay its chunks without searching again', async () => {
    const stream = basicSearchStream(options())
    const result = await stream.result
    expect(result.response).toContain('[Data: Sources')
    const requests = fake.requests.length
    expect(chats()).toHaveLength(1)
    const first = await collect(stream)
    expect(first.length).toBeGreaterThan(1)
    expect(first.join('')).toBe(result.response)
    expect(await collect(stream)).toEqual(first)
    expect(fake.requests).toHaveLength(requests)
    expect(await stream.result).toBe(result)
  })

  it('runs once when two loops read it at the same time', async () => {
    const stream = basicSearchStream(options())
    const [a, b] = await Promise.all([collect(stream), collect(stream)])
    expect(a.length).toBeGreaterThan(1)
    expect(b).toEqual(a)
    expect(chats()).toHaveLength(1)
  })

  it('leaving the loop early abandons the search unless its result was asked for', async () => {
    const abandoned = basicSearchStream(options())
    for await (const _ of abandoned) break
    await expect(abandoned.result).rejects.toBeInstanceOf(QueryError)

    const wanted = basicSearchStream(options())
    const result = wanted.result
    for await (const _ of wanted) break
    expect((await result).response).toContain('[Data: Sources')
  })
})
