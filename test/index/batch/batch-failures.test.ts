/** Batches that fail, expire or answer lines unusably: each request is asked again until answered, and the index is unchanged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../../src/index/run/runner.js'
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from '../../support/fake-llm/index.js'
import { batchProject, FAST_BATCH_ENV, indexFingerprint, synchronousCalls } from './project.js'

/** Batch lines the fake answered unusably (an embedding is only spoilt by an HTML page). */
function unusableLines(fake: FakeLlm) {
  return fake.requests.filter(
    (r) => r.batchLine !== undefined && r.fault !== undefined && (r.kind !== 'embedding' || r.fault === 'html'),
  )
}

describe('batch runs with failed, expired and unusable lines', () => {
  const fakes: FakeLlm[] = []
  let reference: Record<string, string>

  async function batchIndex(options: FakeLlmOptions, fallback: 'batch' | 'sync' = 'batch') {
    const fake = await startFakeLlm({ embeddingDimension: 8, ...options })
    fakes.push(fake)
    const root = await batchProject(fake)
    const stats = await runIndex({ root, env: FAST_BATCH_ENV, skipValidation: true, batch: { all: true, fallback } })
    return { fake, root, stats: stats.stats }
  }

  beforeAll(async () => {
    const fake = await startFakeLlm({ embeddingDimension: 8 })
    fakes.push(fake)
    const root = await batchProject(fake)
    await runIndex({ root, env: {}, skipValidation: true })
    reference = await indexFingerprint(root)
  }, 60_000)

  afterAll(async () => {
    for (const fake of fakes) await fake.close()
  })

  it('an expired batch is resubmitted for its unanswered lines only', async () => {
    const { fake, root } = await batchIndex({
      batch: { outcome: (n) => (n === 0 ? { status: 'expired', answered: 4 } : { status: 'completed' }) },
    })
    const [expired, next] = fake.batchApi.batches
    expect(expired!.status).toBe('expired')
    const unanswered = expired!.customIds.slice(4)
    expect(next!.customIds).toEqual(expect.arrayContaining(unanswered))
    for (const answered of expired!.customIds.slice(0, 4)) expect(next!.customIds).not.toContain(answered)
    expect(synchronousCalls(fake)).toBe(0)
    expect(await indexFingerprint(root)).toEqual(reference)
  }, 60_000)

  it('a failed batch is resubmitted whole', async () => {
    const { fake, root } = await batchIndex({
      batch: { outcome: (n) => (n === 0 ? { status: 'failed' } : { status: 'completed' }) },
    })
    const [failed, next] = fake.batchApi.batches
    expect(failed!.status).toBe('failed')
    expect(next!.customIds).toEqual(expect.arrayContaining(failed!.customIds))
    expect(await indexFingerprint(root)).toEqual(reference)
  }, 60_000)

  const UNUSABLE: FakeLlmOptions['faults'] = { rate: 0.15, kinds: ['empty_choices', 'null_content', 'html'], seed: 7 }

  it('an unusable line is validated as a synchronous reply would be and asked again in the next batch', async () => {
    const { fake, root, stats } = await batchIndex({ faults: UNUSABLE })
    const faulted = unusableLines(fake)
    expect(faulted.length).toBeGreaterThan(0)
    expect(synchronousCalls(fake)).toBe(0)
    // Each unusable line came back as a line of a later batch.
    for (const bad of faulted) {
      const again = fake.requests.filter((r) => r.id > bad.id && JSON.stringify(r.body) === JSON.stringify(bad.body))
      expect(again.length, bad.kind).toBeGreaterThan(0)
      expect(again[0]!.batchLine).not.toBe(bad.batchLine)
    }
    expect(stats.llm_totals.retries).toBeGreaterThanOrEqual(faulted.length)
    expect(await indexFingerprint(root)).toEqual(reference)
  }, 60_000)

  it('--batch-fallback sync asks an unusable line again synchronously', async () => {
    const { fake, root } = await batchIndex({ faults: UNUSABLE }, 'sync')
    const faulted = unusableLines(fake)
    const sync = fake.requests.filter((r) => r.batchLine === undefined && r.kind !== 'models')
    expect(faulted.length).toBeGreaterThan(0)
    expect(sync.length).toBeGreaterThanOrEqual(faulted.length)
    const faultedBodies = new Set(faulted.map((r) => JSON.stringify(r.body)))
    for (const call of sync) expect(faultedBodies.has(JSON.stringify(call.body))).toBe(true)
    expect(await indexFingerprint(root)).toEqual(reference)
  }, 60_000)
})
