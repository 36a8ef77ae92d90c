import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GraphragError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { covariateId } from '../../../src/index/operations/graph-ids.js'
import { extractCovariates } from '../../../src/index/workflows/extract_covariates.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, COVARIATES } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNITS = [
  { id: 'unit-a', document_id: 'doc', text: 'Scrooge kept his clerk Cratchit in a freezing office.', n_tokens: 12 },
  { id: 'unit-b', document_id: 'doc', text: 'Marley was dead: to begin with.', n_tokens: 8 },
]

/** How the fake model answers the claim prompt: well, or with unusable replies (per test). */
let mode: 'normal' | 'refuse' | 'refuse-once' | 'think-then-echo' = 'normal'
const ECHO =
  '(VELLMAR HARBOUR AUTHORITY<|>NONE<|>SAFETY VIOLATION<|>TRUE<|>2023-01-01T00:00:00<|>2023-06-30T00:00:00<|>skipped hull inspections<|>source)\n<|COMPLETE|>'

const responders: Responder[] = [
  ({ kind, messages }) => {
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    const subject = first.includes('Cratchit') ? 'SCROOGE' : 'MARLEY'
    const retry = messages.some((m) => m.role === 'assistant')
    if (mode === 'refuse' && kind.startsWith('extract_claims')) return "I'm sorry, but I can't help with that request."
    if (mode === 'refuse-once' && kind.startsWith('extract_claims'))
      return retry
        ? `(${subject}<|>NONE<|>FIRST<|>TRUE<|>NONE<|>NONE<|>first reply claim<|>source)\n<|COMPLETE|>`
        : "I'm sorry, but I can't help with that request."
    if (mode === 'think-then-echo' && kind.startsWith('extract_claims'))
      return retry
        ? ECHO
        : `<think>The format is (SUBJECT<|>OBJECT<|>CLAIM_TYPE<|>STATUS<|>START<|>END<|>DESCRIPTION<|>SOURCE), so for ${subject} I`
    if (kind === 'extract_claims')
      return `(${subject}<|>NONE<|>FIRST<|>TRUE<|>NONE<|>NONE<|>first reply claim<|>source)\n##\n(broken<|>claim)\n<|COMPLETE|>`
    if (kind === 'extract_claims_continue') {
      return `##\n(${subject.toLowerCase()}<|>NONE<|>GLEANED<|>suspected<|>NONE<|>NONE<|>gleaned claim<|>source)\n##\n(${subject}<|>NONE<|>FIRST<|>TRUE<|>NONE<|>NONE<|>first reply claim<|>source)\n<|COMPLETE|>`
    }
    return undefined
  },
]

async function claimsProject(llm: FakeLlm, extraYaml = '') {
  return createTestContext({
    settingsYaml: `${fakeModelSettingsYaml(llm.baseUrl)}extract_claims:\n  enabled: true\n  max_gleanings: 0\n${extraYaml}`,
    files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) },
    models: (settings, cache) =>
      createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_covariates'),
  })
}

const claimRequests = (llm: FakeLlm, from: number) =>
  llm.requests.slice(from).filter((r) => r.kind.startsWith('extract_claims'))

describe('extract_covariates', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('does nothing (and asks for no model) unless extract_claims.enabled', async () => {
    const t = await createTestContext({ files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) } })
    const result = await extractCovariates.run(t.ctx)
    expect(result.rows).toBeUndefined()
    expect(await t.tables.has(COVARIATES.name)).toBe(false)
  })

  it('merges gleaned claims, drops malformed ones, feeds the configured entity types, derives ids', async () => {
    const before = llm.requests.length
    const t = await createTestContext({
      settingsYaml: `${fakeModelSettingsYaml(llm.baseUrl)}extract_claims:\n  enabled: true\nextract_graph:\n  entity_types: [person, ghost]\n`,
      files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) },
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_covariates'),
    })
    await extractCovariates.run(t.ctx)
    const rows = await t.tables.read(COVARIATES)
    expect(
      rows.map((r) => [r.human_readable_id, r.text_unit_id, r.subject_id, r.type, r.status, r.description]),
    ).toEqual([
      [0, 'unit-a', 'SCROOGE', 'FIRST', 'TRUE', 'first reply claim'],
      [1, 'unit-a', 'SCROOGE', 'GLEANED', 'SUSPECTED', 'gleaned claim'],
      [2, 'unit-b', 'MARLEY', 'FIRST', 'TRUE', 'first reply claim'],
      [3, 'unit-b', 'MARLEY', 'GLEANED', 'SUSPECTED', 'gleaned claim'],
    ])
    expect(rows.map((r) => r.id)).toEqual([
      covariateId('unit-a', 0),
      covariateId('unit-a', 1),
      covariateId('unit-b', 0),
      covariateId('unit-b', 1),
    ])
    expect(rows.every((r) => r.covariate_type === 'claim')).toBe(true)
    expect(t.stats.counters.parse_drops).toBe(2)
    const firstPrompt = JSON.stringify(llm.requests.slice(before).find((r) => r.kind === 'extract_claims')!.body)
    expect(firstPrompt).toContain("['person', 'ghost']")
  })

  describe('unusable replies', () => {
    afterAll(() => {
      mode = 'normal'
    })

    it('asks again once after a refusal, then fails the run naming the unusable reply', async () => {
      mode = 'refuse'
      const before = llm.requests.length
      const t = await claimsProject(llm)
      const error = await extractCovariates.run(t.ctx).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(GraphragError)
      expect((error as Error).message).toMatch(/unusable.*a refusal: I'm sorry/)
      // Each unit: the first request and one retry in the same conversation, nothing more.
      expect(claimRequests(llm, before).length).toBe(UNITS.length * 2)
      expect(t.stats.failures.map((f) => f.item).sort()).toEqual(UNITS.map((u) => u.id))
      expect(t.stats.warnings.some((w) => /2 replies were unusable/.test(w))).toBe(true)
      expect(await t.tables.has(COVARIATES.name)).toBe(false)
    })

    it('reads the answer to the retry when only the first reply was a refusal', async () => {
      mode = 'refuse-once'
      const t = await claimsProject(llm)
      await extractCovariates.run(t.ctx)
      const rows = await t.tables.read(COVARIATES)
      expect(rows.map((r) => [r.text_unit_id, r.subject_id, r.type])).toEqual([
        ['unit-a', 'SCROOGE', 'FIRST'],
        ['unit-b', 'MARLEY', 'FIRST'],
      ])
      expect(t.stats.counters.retried_replies).toBe(2)
    })

    it('never reads a thinking block or an echo of the examples as claims; --allow-partial lists what was lost', async () => {
      mode = 'think-then-echo'
      // --allow-partial sets every max_failed_fraction to 1 (runner.ts); claims share extract_graph's.
      const t = await claimsProject(llm, 'extract_graph:\n  max_failed_fraction: 1\n')
      await extractCovariates.run(t.ctx)
      expect(await t.tables.read(COVARIATES)).toEqual([])
      expect(t.stats.failures.map((f) => f.item).sort()).toEqual(UNITS.map((u) => u.id))
      expect(t.stats.failures.every((f) => /echo of the prompt's examples/.test(f.reason))).toBe(true)
      expect(t.stats.warnings.some((w) => /2 text units lost/.test(w))).toBe(true)
    })
  })
})
