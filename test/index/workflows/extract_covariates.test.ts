import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

const responders: Responder[] = [
  ({ kind, messages }) => {
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    const subject = first.includes('Cratchit') ? 'SCROOGE' : 'MARLEY'
    if (kind === 'extract_claims')
      return `(${subject}<|>NONE<|>FIRST<|>TRUE<|>NONE<|>NONE<|>first reply claim<|>source)\n##\n(broken<|>claim)\n<|COMPLETE|>`
    if (kind === 'extract_claims_continue') {
      return `##\n(${subject.toLowerCase()}<|>NONE<|>GLEANED<|>suspected<|>NONE<|>NONE<|>gleaned claim<|>source)\n##\n(${subject}<|>NONE<|>FIRST<|>TRUE<|>NONE<|>NONE<|>first reply claim<|>source)\n<|COMPLETE|>`
    }
    return undefined
  },
]

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
})
