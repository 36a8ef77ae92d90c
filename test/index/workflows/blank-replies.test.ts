/**
 * Replies that stay blank after their retries (a local model answering some prompts with a blank
 * line): read as "no records", counted, named on screen and in the log; the run fails only when
 * every reply is blank or extract_graph.fail_on_empty_replies asks for strictness.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createConsoleReporter } from '../../../src/cli/console-reporter.js'
import { WorkflowError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { extractCovariates } from '../../../src/index/workflows/extract_covariates.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import type { WorkflowName } from '../../../src/index/workflows/index.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, COVARIATES, EXTRACTED_ENTITIES } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNITS = [
  {
    id: 'unit-a',
    document_id: 'doc',
    text: 'Ebenezer Scrooge kept his clerk Bob Cratchit in a cold office.',
    n_tokens: 14,
  },
  { id: 'unit-b', document_id: 'doc', text: 'Jacob Marley had been dead these seven years.', n_tokens: 10 },
  { id: 'unit-c', document_id: 'doc', text: 'Fred, the nephew of Scrooge, came in with a greeting.', n_tokens: 12 },
]

/** Which replies the server leaves blank, per test. */
const blank = { marley: false, all: false, gleanings: false }

const BLANK = ' \n'

const responders: Responder[] = [
  ({ kind, messages }) => {
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    const extraction = kind === 'extract_graph' || kind === 'extract_claims'
    if (extraction && (blank.all || (blank.marley && first.includes('Jacob Marley')))) return BLANK
    if (blank.gleanings && kind === 'extract_graph_continue') return BLANK
    if (kind === 'extract_graph') {
      const who = first.includes('Marley') ? 'MARLEY' : first.includes('Fred') ? 'FRED' : 'CRATCHIT'
      return `("entity"<|>SCROOGE<|>PERSON<|>A miser)##\n("entity"<|>${who}<|>PERSON<|>Known to Scrooge)##\n("relationship"<|>SCROOGE<|>${who}<|>know each other<|>5)\n<|COMPLETE|>`
    }
    if (kind === 'extract_graph_continue') return '<|COMPLETE|>'
    if (kind === 'extract_claims') {
      const subject = first.includes('Marley') ? 'MARLEY' : 'SCROOGE'
      return `(${subject}<|>NONE<|>MISERLINESS<|>TRUE<|>NONE<|>NONE<|>keeps the office cold<|>source)\n<|COMPLETE|>`
    }
    return undefined
  },
]

async function project(llm: FakeLlm, extraYaml = '', options: { root?: string; maxRetries?: number } = {}) {
  const settingsYaml = `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: options.maxRetries ?? 0 })}${extraYaml}`
  return createTestContext({
    ...(options.root === undefined
      ? { settingsYaml, files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) } }
      : { root: options.root }),
    models: (settings, cache) => {
      const registry = createModelRegistry(settings, { cache, log: SILENT_LOGGER })
      return registry.forWorkflow(extraYaml.includes('extract_claims') ? 'extract_covariates' : 'extract_graph')
    },
  })
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  )

const requestsFor = (llm: FakeLlm, from: number, text: string) =>
  llm.requests.slice(from).filter((r) => r.kind === 'extract_graph' && JSON.stringify(r.body).includes(text))

describe('blank model replies in extraction', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders })
  })
  afterAll(async () => {
    await llm?.close()
  })
  beforeEach(() => {
    Object.assign(blank, { marley: false, all: false, gleanings: false })
  })

  it('reads a reply still blank after its retries as no records, counts it, and never caches it', async () => {
    blank.marley = true
    const before = llm.requests.length
    const t = await project(llm, '', { maxRetries: 1 })
    const result = await extractGraph.run(t.ctx)
    // The blank reply was retried once, then read as an extraction with no records.
    expect(requestsFor(llm, before, 'Jacob Marley')).toHaveLength(2)
    expect(t.stats.failures).toEqual([])
    expect(t.stats.counters.empty_replies).toBe(1)
    expect(t.stats.counters.chunks_failed).toBe(0)
    // unit-a and unit-c: extraction and one gleaning each; unit-b: its blank extraction only.
    expect(t.stats.counters.extraction_calls).toBe(5)
    expect(t.stats.warnings).toContain(
      '1 of 5 replies was empty (blank after retries) and read as no records; see logs',
    )
    expect(result.summary?.empty_replies).toBe(1)
    const titles = (await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title).sort()
    expect(titles).toEqual(['CRATCHIT', 'FRED', 'SCROOGE'])

    // A second run answers the others from the cache and asks the blank one again.
    blank.marley = false
    const second = llm.requests.length
    const again = await project(llm, '', { root: t.root })
    await extractGraph.run(again.ctx)
    const asked = llm.requests.slice(second).filter((r) => r.kind === 'extract_graph')
    expect(asked.map((r) => JSON.stringify(r.body).includes('Jacob Marley'))).toEqual([true])
    expect(again.stats.counters.empty_replies).toBe(0)
    expect((await again.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title)).toContain('MARLEY')
  })

  it('ends the gleaning at a blank gleaning reply and keeps the first reply’s records', async () => {
    blank.gleanings = true
    const t = await project(llm, 'extract_graph:\n  max_gleanings: 3\n')
    await extractGraph.run(t.ctx)
    expect(t.stats.counters.empty_replies).toBe(3)
    expect(t.stats.counters.extraction_calls).toBe(6)
    expect(t.stats.warnings).toContain(
      '3 of 6 replies were empty (blank after retries) and read as no records; see logs',
    )
    expect((await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title).sort()).toEqual([
      'CRATCHIT',
      'FRED',
      'MARLEY',
      'SCROOGE',
    ])
  })

  it('fails the workflow, saying the model answers nothing, when every reply is blank', async () => {
    blank.all = true
    const t = await project(llm)
    const error = await failure(extractGraph.run(t.ctx))
    expect(error).toBeInstanceOf(WorkflowError)
    expect((error as Error).message).toContain('every one of the 3 replies of the model was empty')
    expect((error as Error).message).toContain('context window')
    expect((error as Error).message).toContain('lower chunking.size')
  })

  it('counts a blank reply as a failed chunk when extract_graph.fail_on_empty_replies is on', async () => {
    blank.marley = true
    const t = await project(llm, 'extract_graph:\n  fail_on_empty_replies: true\n')
    const error = await failure(extractGraph.run(t.ctx))
    expect(error).toBeInstanceOf(WorkflowError)
    expect((error as Error).message).toContain('1 of 3 text units failed after retries')
    expect((error as Error).message).toContain('unit-b')
    expect(t.stats.failures.map((f) => f.item)).toEqual(['unit-b'])
    expect(t.stats.counters.empty_replies).toBe(0)
  })

  it('reads a blank claim reply as no claims, and fails when every claim reply is blank', async () => {
    blank.marley = true
    const claims = 'extract_claims:\n  enabled: true\n  max_gleanings: 0\n'
    const t = await project(llm, claims)
    const result = await extractCovariates.run(t.ctx)
    expect(result.summary?.empty_replies).toBe(1)
    expect(t.stats.failures).toEqual([])
    expect((await t.tables.read(COVARIATES)).map((c) => c.text_unit_id)).toEqual(['unit-a', 'unit-c'])

    blank.all = true
    const all = await project(llm, claims)
    const error = await failure(extractCovariates.run(all.ctx))
    expect(error).toBeInstanceOf(WorkflowError)
    expect((error as Error).message).toContain('every one of the 3 replies')
  })

  it('names the blank replies in the end-of-run summary and the log of an index run', async () => {
    blank.marley = true
    const workflows: WorkflowName[] = ['load_input_documents', 'create_base_text_units', 'extract_graph']
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}workflows: [${workflows.join(', ')}]\n`,
      ...Object.fromEntries(UNITS.map((u) => [`input/${u.id}.txt`, u.text])),
    })
    const chunks: string[] = []
    const reporter = createConsoleReporter({ stream: { isTTY: false, write: (text: string) => chunks.push(text) } })
    const { stats } = await runIndex({ root, skipValidation: true, reporter })
    expect(stats.workflows.extract_graph?.status).toBe('succeeded')
    const screen = chunks.join('')
    expect(screen).toContain('Note: extract_graph: 1 of 5 replies was empty, read as no records')
    const log = await readFile(join(root, 'logs', 'indexing-engine.log'), 'utf8')
    expect(log).toContain('1 of 5 replies was empty (blank after retries) and read as no records')
    expect(log).toMatch(/extract_graph: [0-9a-f]+: the reply was still blank after its retries; read as no records/)
  })
})
