import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveStatus, SILENT_REPORTER } from '../../../src/index/run/reporter.js'
import type { RunStatsFile } from '../../../src/index/run/run-stats.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { runUpdate } from '../../../src/index/run/update.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { batchProject, FAST_BATCH_ENV, indexFingerprint, synchronousCalls } from './project.js'

describe('index --batch through the fake OpenAI Batch API', () => {
  let syncFake: FakeLlm
  let batchFake: FakeLlm
  let syncRoot: string
  let batchRoot: string
  let syncStats: RunStatsFile
  let batchStats: RunStatsFile
  /** The batch part of the progress line, sampled while the batch run ran. */
  const progress = new Set<string>()

  beforeAll(async () => {
    syncFake = await startFakeLlm({ embeddingDimension: 8 })
    batchFake = await startFakeLlm({ embeddingDimension: 8, batch: { pollsBeforeDone: 2 } })
    syncRoot = await batchProject(syncFake)
    batchRoot = await batchProject(batchFake)
    syncStats = (await runIndex({ root: syncRoot, env: {}, skipValidation: true })).stats
    let live: ((workflow: string) => LiveStatus) | undefined
    const reporter = { ...SILENT_REPORTER, watch: (source: (workflow: string) => LiveStatus) => (live = source) }
    const sampler = setInterval(() => {
      const batches = live?.('extract_graph').batches
      if (batches !== undefined) progress.add(batches)
    }, 2)
    try {
      batchStats = (
        await runIndex({ root: batchRoot, env: FAST_BATCH_ENV, skipValidation: true, batch: { all: true }, reporter })
      ).stats
    } finally {
      clearInterval(sampler)
    }
  }, 120_000)

  afterAll(async () => {
    await syncFake?.close()
    await batchFake?.close()
  })

  it('writes the same tables, byte for byte, as the synchronous index', async () => {
    const sync = await indexFingerprint(syncRoot)
    expect(Object.keys(sync)).toContain('community_reports.parquet')
    expect(await indexFingerprint(batchRoot)).toEqual(sync)
  })

  it('sends every model request as a batch line, none synchronously', () => {
    const lines = batchFake.requests.filter((r) => r.batchLine !== undefined)
    expect(synchronousCalls(batchFake)).toBe(0)
    expect(lines.length).toBe(synchronousCalls(syncFake))
  })

  it('sends each workflow step in one batch: every kind of request is in exactly one batch', () => {
    const batchesOf = new Map<string, Set<string>>()
    for (const r of batchFake.requests)
      if (r.batchLine !== undefined) batchesOf.set(r.kind, (batchesOf.get(r.kind) ?? new Set()).add(r.batchLine))
    // Extraction and claims (workflows running side by side) may share a batch; gleaning comes after both.
    expect([...batchesOf.keys()].sort()).toEqual([
      'community_report',
      'embedding',
      'extract_claims',
      'extract_claims_continue',
      'extract_graph',
      'extract_graph_continue',
    ])
    for (const [kind, ids] of batchesOf) expect(ids.size, kind).toBe(1)
    expect(batchFake.batchApi.batches.every((b) => b.status === 'completed' && b.polls >= 2)).toBe(true)
  })

  it('prices the batched calls at half and reports the discount in stats.json', () => {
    const sync = syncStats.llm_totals.costUsd
    expect(sync).toBeGreaterThan(0)
    expect(batchStats.llm_totals.costUsd).toBeCloseTo(sync / 2, 10)
    const lines = batchFake.requests.filter((r) => r.batchLine !== undefined).length
    expect(batchStats.batch).toEqual({
      models: ['completion_models.default_completion_model', 'embedding_models.default_embedding_model'],
      batches_submitted: batchFake.batchApi.batches.length,
      batches_collected: batchFake.batchApi.batches.length,
      lines_sent: lines,
      lines_answered: lines,
      cost_usd: expect.closeTo(sync / 2, 10),
      sync_cost_usd: expect.closeTo(sync, 10),
      saved_usd: expect.closeTo(sync / 2, 10),
    })
    expect(syncStats.batch).toBeUndefined()
  })

  it('shows batches submitted, in progress and done and the lines answered in the progress line', () => {
    const pattern = /^batches (\d+) submitted, (\d+) in progress, (\d+) done, (\d+)\/(\d+) lines answered$/
    const samples = [...progress].map((text) => pattern.exec(text)?.slice(1).map(Number))
    expect(samples.length).toBeGreaterThan(1)
    expect(samples.every((s) => s !== undefined)).toBe(true)
    // A batch was seen running (submitted, not yet answered) and, later, answered.
    expect(samples.some((s) => s![1]! > 0)).toBe(true)
    expect(samples.some((s) => s![2]! > 0 && s![3]! > 0)).toBe(true)
  })

  it('leaves no batch state in the published index', async () => {
    expect(await readdir(join(batchRoot, 'output'))).not.toContain('.batches')
  })

  it('sends nothing for calls already in the cache: a re-run from the first workflow submits no batch', async () => {
    const before = batchFake.batchApi.calls.length
    const { stats } = await runIndex({
      root: batchRoot,
      env: FAST_BATCH_ENV,
      skipValidation: true,
      resume: false,
      batch: { all: true },
    })
    expect(batchFake.batchApi.calls.length).toBe(before)
    expect(stats.batch).toMatchObject({ batches_submitted: 0, batches_collected: 0, lines_sent: 0, saved_usd: 0 })
    expect(stats.llm_totals.cacheHits).toBeGreaterThan(0)
    expect(synchronousCalls(batchFake)).toBe(0)
  })

  // Last: it changes both projects.
  it('update --batch sends the new document’s calls as batches and writes the tables a synchronous update writes', async () => {
    const story = join(PROJECT_ROOT, 'fixtures', 'demo', 'input', '03-the-salvage.txt')
    const added = (await readFile(story, 'utf8')).slice(0, 2000)
    for (const root of [syncRoot, batchRoot]) await writeFile(join(root, 'input', '03-the-salvage.txt'), added)
    await runUpdate({ root: syncRoot, env: {}, skipValidation: true })
    const before = batchFake.batchApi.batches.length
    await runUpdate({ root: batchRoot, env: FAST_BATCH_ENV, skipValidation: true, batch: { all: true } })
    expect(batchFake.batchApi.batches.length).toBeGreaterThan(before)
    expect(synchronousCalls(batchFake)).toBe(0)
    expect(await indexFingerprint(batchRoot)).toEqual(await indexFingerprint(syncRoot))
  })
})
