import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PIPELINES } from '../../../src/index/plan/pipelines.js'
import { RecordingReporter } from '../../../src/index/run/reporter.js'
import { readResumeState } from '../../../src/index/run/resume.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { InOrderRecorder, runGraph, tablesInListOrder, workflowGraph } from '../../../src/index/run/schedule.js'
import { WORKFLOWS } from '../../../src/index/workflows/index.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

describe('workflowGraph', () => {
  const standard = PIPELINES.standard
  const graph = workflowGraph(standard.map((n) => WORKFLOWS[n]))
  const dependsOn = (name: string) => graph[standard.indexOf(name as never)]!.map((i) => standard[i])

  it('lets claims wait only for the text units, beside graph extraction', () => {
    expect(dependsOn('extract_covariates')).toEqual(['create_base_text_units'])
    expect(dependsOn('extract_graph')).toEqual(['create_base_text_units'])
  })

  it('orders a rewrite after every earlier reader and writer of the table, and the chunk graph after the vectors', () => {
    expect(dependsOn('create_final_text_units')).toEqual([
      'create_base_text_units',
      'create_final_documents',
      'extract_graph',
      'finalize_graph',
      'extract_covariates',
    ])
    expect(dependsOn('create_chunk_graph')).toContain('generate_text_embeddings')
    expect(dependsOn('finalize_graph')).toEqual(['extract_graph'])
  })
})

describe('runGraph', () => {
  it('runs independent work side by side, each after its dependencies', async () => {
    const log: string[] = []
    const outcome = await runGraph([[], [0], [0], [1, 2]], async (i) => {
      log.push(`start ${i}`)
      await tick()
      log.push(`end ${i}`)
      return { stop: false }
    })
    expect(outcome).toEqual({ finished: [0, 1, 2, 3], error: undefined, failed: false })
    expect(log.indexOf('start 2')).toBeLessThan(log.indexOf('end 1'))
    expect(log.indexOf('start 3')).toBeGreaterThan(Math.max(log.indexOf('end 1'), log.indexOf('end 2')))
  })

  it('after a failure lets the running ones finish, starts nothing new and reports the earliest failure in list order', async () => {
    const started: number[] = []
    const outcome = await runGraph([[], [0], [0], [1]], async (i) => {
      started.push(i)
      await tick()
      if (i === 1) throw new Error('one failed')
      if (i === 2) await tick()
      return { stop: false }
    })
    expect(started).toEqual([0, 1, 2])
    expect(outcome.finished).toEqual([0, 2])
    expect((outcome.error as Error).message).toBe('one failed')
  })

  it('starts nothing after a stop', async () => {
    const outcome = await runGraph([[], [0]], async (i) => ({ stop: i === 0 }))
    expect(outcome.finished).toEqual([0])
  })
})

describe('InOrderRecorder', () => {
  it('hands records on in list order whatever order they finish in', async () => {
    const out: string[] = []
    const recorder = new InOrderRecorder<string>(async (r) => {
      await tick()
      out.push(r)
    })
    await recorder.record(2, 'c')
    await recorder.record(0, 'a')
    expect(out).toEqual(['a'])
    await recorder.record(1, 'b')
    expect(out).toEqual(['a', 'b', 'c'])
  })
})

describe('tablesInListOrder', () => {
  it("takes the previous record's tables and only this workflow's own as it left them", () => {
    // create_communities finished after create_final_text_units had already rewritten text_units.
    const previous = { text_units: 'base', entities: 'final' }
    const atFinish = { text_units: 'rewritten later', entities: 'final', communities: 'c1' }
    expect(tablesInListOrder(previous, atFinish, ['communities'])).toEqual({
      text_units: 'base',
      entities: 'final',
      communities: 'c1',
    })
  })
})

const TEXT = [
  'Marta Quill keeps the records of Kettle Harbour. Captain Olsen brings the mail from North Pier.',
  'The Harbour Council meets in the Lantern Hall, where Marta Quill reads the minutes to Captain Olsen.',
  'Mayor Brandt closed the Fish Market for the winter. Captain Olsen and Mayor Brandt argued at Lantern Hall.',
].join('\n\n')

/** Most requests in flight at once among `requests`. */
function peakInFlight(requests: FakeLlm['requests']): number {
  const events = requests
    .flatMap(
      (r) =>
        [
          [r.startedAt, 1],
          [r.endedAt, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let peak = 0
  for (const [, d] of events) peak = Math.max(peak, (now += d))
  return peak
}

describe('independent workflows run side by side (standard method with claims, fake model server)', () => {
  let llm: FakeLlm
  let root: string
  let reporter: RecordingReporter

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 150 } })
    const settings = [
      fakeModelSettingsYaml(llm.baseUrl, { concurrentRequests: 3 }),
      'vector_store:\n  vector_size: 8',
      'chunking:\n  size: 40\n  overlap: 0',
      'extract_graph:\n  max_gleanings: 1',
      'extract_claims:\n  enabled: true\n  max_gleanings: 1',
      '',
    ].join('\n')
    root = await testdir({ 'settings.yaml': settings, 'input/harbour.txt': TEXT })
    reporter = new RecordingReporter()
    await runIndex({ root, skipValidation: true, reporter })
  }, 120_000)

  afterAll(async () => {
    await llm?.close()
  })

  it('extracts claims while graph extraction is still running, never above the shared limit of 3 per model', () => {
    const graph = llm.requests.filter((r) => r.kind.startsWith('extract_graph'))
    const claims = llm.requests.filter((r) => r.kind.startsWith('extract_claims'))
    expect(graph.length).toBeGreaterThan(3)
    expect(claims.length).toBeGreaterThan(3)
    const graphEnd = Math.max(...graph.map((r) => r.endedAt))
    const graphStart = Math.min(...graph.map((r) => r.startedAt))
    expect(claims.some((r) => r.startedAt < graphEnd && r.endedAt > graphStart)).toBe(true)
    const chat = llm.requests.filter((r) => r.kind !== 'embedding')
    expect(peakInFlight(chat)).toBe(3)
    expect(peakInFlight(llm.requests.filter((r) => r.kind === 'embedding'))).toBeLessThanOrEqual(3)
  })

  it('shows both workflows running at once, and keeps stats and resume records in plan order', async () => {
    const events = reporter.events
      .filter((e) => e.type === 'workflowStart' || e.type === 'workflowEnd')
      .map((e) => `${e.type} ${e.name}`)
    expect(events.indexOf('workflowStart extract_covariates')).toBeLessThan(events.indexOf('workflowEnd extract_graph'))
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')) as {
      workflows: Record<string, unknown>
    }
    expect(Object.keys(stats.workflows)).toEqual([...PIPELINES.standard])
    expect((await readResumeState(join(root, 'output'))).completed.map((r) => r.workflow)).toEqual([
      ...PIPELINES.standard,
    ])
  })
})
