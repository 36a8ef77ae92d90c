import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GraphragError, WorkflowError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, EXTRACTED_ENTITIES } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNITS = [
  {
    id: 'unit-a',
    document_id: 'doc',
    text: 'Ebenezer Scrooge sat in his Counting House while Cratchit copied letters.',
    n_tokens: 14,
  },
  {
    id: 'unit-b',
    document_id: 'doc',
    text: 'Jacob Marley had been dead these seven years, and Scrooge knew it.',
    n_tokens: 14,
  },
  {
    id: 'unit-c',
    document_id: 'doc',
    text: 'Fred, the nephew of Scrooge, came in with a cheerful Christmas greeting.',
    n_tokens: 14,
  },
]

/** Server behaviour the tests switch per case. */
const behaviour = { failMarley: false, refuse: false, nothing: false, sloppy: false, yesAnswers: 0, failFogBell: false }

const responders: Responder[] = [
  ({ kind, messages }) => {
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    if (behaviour.failMarley && kind.startsWith('extract_graph') && first.includes('Jacob Marley'))
      throw new Error('injected failure')
    if (behaviour.failFogBell && kind === 'extract_graph' && first.includes('Fog Bell'))
      throw new Error('injected failure')
    if (behaviour.refuse && kind.startsWith('extract_graph'))
      return 'Sorry, as an AI model I cannot produce that format.'
    if (behaviour.nothing && kind.startsWith('extract_graph')) return '<|COMPLETE|>'
    if (behaviour.sloppy && kind === 'extract_graph')
      return '("entity"<|>SCROOGE<|>PERSON<|>A miser)##\n("entity"<|>CRATCHIT<|>PERSON<|>His clerk)##\n("relationship"<|>SCROOGE<|>CRATCHIT<|>employs him)##\n("entity"<|>NOTYPE)##\n<|COMPLETE|>'
    if (kind === 'extract_graph_loop') return behaviour.yesAnswers-- > 0 ? 'Y' : 'N'
    if (kind === 'extract_graph_continue') {
      const round = messages.filter((m) => m.role === 'assistant').length
      return `##\n("entity"<|>GLEANED ${round}<|>EVENT<|>found in round ${round})\n##\n("relationship"<|>GLEANED ${round}<|>SCROOGE<|>seen together<|>${round + 1})\n<|COMPLETE|>`
    }
    return undefined
  },
]

async function project(llm: FakeLlm, extraYaml = '', root?: string) {
  const settingsYaml = `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}${extraYaml}`
  return createTestContext({
    ...(root === undefined
      ? { settingsYaml, files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) } }
      : { root }),
    models: (settings, cache) =>
      createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_graph'),
  })
}

const extractionRequests = (llm: FakeLlm, from: number) =>
  llm.requests.slice(from).filter((r) => r.kind.startsWith('extract_graph'))

describe('extract_graph failures and gleaning', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({
      responders,
      // A reasoning model's API reply: thinking in `reasoning_content`, quoting a record it never answers with.
      reasoning: ({ kind }) =>
        kind.startsWith('extract_graph')
          ? 'Records look like ("entity"<|>THOUGHT ONLY<|>EVENT<|>not in the answer)## so I will list them.'
          : undefined,
    })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('fails with a summary when a chunk fails after retries, and a re-run retries only that chunk', async () => {
    behaviour.failMarley = true
    const t = await project(llm)
    const error = await extractGraph.run(t.ctx).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(WorkflowError)
    expect((error as WorkflowError).code).toBe('WORKFLOW')
    expect((error as Error).message).toContain('unit-b')
    expect(t.stats.failures.map((f) => f.item)).toEqual(['unit-b'])
    expect(await t.tables.has(EXTRACTED_ENTITIES.name)).toBe(false)

    behaviour.failMarley = false
    const before = llm.requests.length
    const again = await project(llm, '', t.root)
    await extractGraph.run(again.ctx)
    const retried = extractionRequests(llm, before)
    expect(retried.length).toBe(2)
    expect(retried.every((r) => JSON.stringify(r.body).includes('Jacob Marley'))).toBe(true)
    expect(again.stats.failures).toEqual([])
  })

  it('says on screen how many records were unreadable and how many strengths were defaulted', async () => {
    behaviour.sloppy = true
    const t = await project(llm)
    await extractGraph.run(t.ctx)
    behaviour.sloppy = false
    expect(t.stats.warnings).toContain('3 records unreadable in 3 replies; see logs')
    expect(t.stats.warnings).toContain('3 relationships without a readable strength kept with weight 1; see logs')
    expect(t.stats.counters.parse_drops).toBe(3)
    expect(t.stats.counters.weight_defaults).toBe(3)
  })

  it('never reads the reasoning field of the API reply as records', async () => {
    const t = await project(llm)
    await extractGraph.run(t.ctx)
    const titles = (await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title)
    expect(titles.length).toBeGreaterThan(0)
    expect(titles).not.toContain('THOUGHT ONLY')
  })

  it('continues past failed chunks within extract_graph.max_failed_fraction and lists them', async () => {
    behaviour.failMarley = true
    const t = await project(llm, 'extract_graph:\n  max_failed_fraction: 0.5\n')
    const result = await extractGraph.run(t.ctx)
    behaviour.failMarley = false
    expect(t.stats.failures.map((f) => f.item)).toEqual(['unit-b'])
    expect(t.stats.counters.chunks_failed).toBe(1)
    expect(result.summary?.failed_chunks).toBe(1)
    const entities = await t.tables.read(EXTRACTED_ENTITIES)
    expect(entities.some((e) => e.text_unit_ids.includes('unit-b'))).toBe(false)
    expect(entities.length).toBeGreaterThan(0)
  })

  it('asks again once after a refusal, then fails the run naming the unusable reply', async () => {
    behaviour.refuse = true
    const before = llm.requests.length
    const t = await project(llm)
    const error = await extractGraph.run(t.ctx).then(
      () => undefined,
      (e: unknown) => e,
    )
    behaviour.refuse = false
    expect(error).toBeInstanceOf(GraphragError)
    expect((error as Error).message).toContain('unusable')
    expect((error as Error).message).toContain('Sorry, as an AI model')
    // Each unit: the first request and one retry in the same conversation, nothing more.
    const sent = extractionRequests(llm, before)
    expect(sent.length).toBe(UNITS.length * 2)
    expect(t.stats.failures.map((f) => f.item).sort()).toEqual(UNITS.map((u) => u.id))
    expect(t.stats.warnings.some((w) => /3 replies were unusable/.test(w))).toBe(true)
  })

  it('fails loudly, showing a raw reply, when the model finds nothing anywhere', async () => {
    behaviour.nothing = true
    const t = await project(llm)
    const error = await extractGraph.run(t.ctx).then(
      () => undefined,
      (e: unknown) => e,
    )
    behaviour.nothing = false
    expect(error).toBeInstanceOf(GraphragError)
    expect((error as Error).message).toContain('no entities')
    expect((error as Error).message).toContain('<|COMPLETE|>')
  })

  it('runs gleaning rounds while the model answers Y, keeping every gleaned record and no Y/N turn in the history', async () => {
    behaviour.yesAnswers = 3 // one Y per unit for the first rounds: see the per-unit sequence below
    const t = await project(llm, 'extract_graph:\n  max_gleanings: 2\nconcurrent_requests: 1\n')
    const before = llm.requests.length
    await extractGraph.run(t.ctx)
    const kinds = extractionRequests(llm, before).map((r) => r.kind)
    // Per unit: extract, continue, loop check (Y), continue — the last round needs no loop check.
    expect(kinds).toEqual(
      Array.from({ length: 3 }, () => [
        'extract_graph',
        'extract_graph_continue',
        'extract_graph_loop',
        'extract_graph_continue',
      ]).flat(),
    )
    const lastContinue = extractionRequests(llm, before)[3]!.body as {
      messages: Array<{ role: string; content: string }>
    }
    expect(lastContinue.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    const entities = await t.tables.read(EXTRACTED_ENTITIES)
    const gleaned = entities.filter((e) => e.title.startsWith('GLEANED'))
    expect(gleaned.map((e) => [e.title, e.text_unit_ids])).toEqual([
      ['GLEANED 1', ['unit-a', 'unit-b', 'unit-c']],
      ['GLEANED 2', ['unit-a', 'unit-b', 'unit-c']],
    ])
    expect(t.stats.counters.extraction_calls).toBe(12)
  })

  it('keeps the failed workflow in stats.json with every failed item, and logs each one', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 9; i++)
      files[`input/night-${i}.txt`] =
        `${i < 7 ? 'The Fog Bell' : 'Ebenezer Scrooge'} was heard from the Counting House on night ${i}.`
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}workflows: [load_input_documents, create_base_text_units, extract_graph]\n`,
      ...files,
    })
    behaviour.failFogBell = true
    const error = await runIndex({ root, skipValidation: true }).then(
      () => undefined,
      (e: unknown) => e,
    )
    behaviour.failFogBell = false
    expect(error).toBeInstanceOf(WorkflowError)

    // The failed run's stats.json is in its work generation (output/ keeps the last complete index).
    const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    const entry = stats.workflows.extract_graph
    expect(entry).toMatchObject({
      status: 'failed',
      error: (error as Error).message,
      skipped: false,
      counters: { chunks_failed: 7 },
    })
    expect(entry.overall).toBeGreaterThan(0)
    expect(entry.failures).toHaveLength(7)
    for (const f of entry.failures) expect(f.reason).toMatch(/HTTP 500/)
    expect(entry.llm.default_completion_model).toMatchObject({ failures: 7 })
    expect(entry.llm.default_completion_model.calls).toBeGreaterThanOrEqual(9)
    expect(stats.llm_totals.calls).toBe(entry.llm.default_completion_model.calls)
    expect(stats.workflows.create_base_text_units.status).toBe('succeeded')

    const log = await readFile(join(root, 'logs', 'indexing-engine.log'), 'utf8')
    for (const f of entry.failures) expect(log).toContain(`extract_graph: failed item ${f.item}: ${f.reason}`)
  })
})
