import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WorkflowError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { reportId } from '../../../src/index/operations/community-reports/render.js'
import { createCommunityReportsText } from '../../../src/index/workflows/create_community_reports_text.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type CommunityRow,
} from '../../../src/model/index.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext, type TestContext } from '../../support/workflow-context.js'

const TEXTS = [
  'Scrooge sat in the counting-house. Bob Cratchit copied letters beside Scrooge.',
  'Bob Cratchit went home to Camden Town. Tiny Tim rode upon the shoulder of Bob Cratchit.',
  'Marley was dead to begin with. Scrooge and Marley had been partners for many years.',
]
const entity = (i: number, title: string, degree: number, units: number[]) => ({
  id: `e${i}`,
  human_readable_id: i,
  title,
  type: 'NOUN PHRASE',
  description: '',
  text_unit_ids: units.map((u) => `t${u}`),
  frequency: units.length,
  degree,
})
const ENTITY_ROWS = [
  entity(0, 'SCROOGE', 2, [0, 2]),
  entity(1, 'BOB CRATCHIT', 2, [0, 1]),
  entity(2, 'TINY TIM', 1, [1]),
  entity(3, 'MARLEY', 1, [2]),
]
const rel = (i: number, source: string, target: string, weight: number, units: number[]) => ({
  id: `r${i}`,
  human_readable_id: i,
  source,
  target,
  description: '',
  weight,
  combined_degree: 3,
  text_unit_ids: units.map((u) => `t${u}`),
})
const RELATIONSHIP_ROWS = [
  rel(0, 'BOB CRATCHIT', 'SCROOGE', 0.2, [0]),
  rel(1, 'BOB CRATCHIT', 'TINY TIM', 0.3, [1]),
  rel(2, 'MARLEY', 'SCROOGE', 0.4, [2]),
]
const community = (
  id: number,
  level: number,
  parent: number,
  children: number[],
  entities: number[],
  rels: number[],
  units: number[],
): CommunityRow => ({
  id: `c${id}`,
  human_readable_id: id,
  community: id,
  level,
  parent,
  children,
  title: `Community ${id}`,
  entity_ids: entities.map((e) => `e${e}`),
  relationship_ids: rels.map((r) => `r${r}`),
  text_unit_ids: units.map((u) => `t${u}`),
  period: '2026-01-15',
  size: entities.length,
})
const COMMUNITY_ROWS = [
  community(0, 0, -1, [2], [0, 1, 2], [0, 1], [0, 1]),
  community(1, 0, -1, [], [3, 0], [2], [2]),
  community(2, 1, 0, [], [1, 2], [1], [1]),
]

async function seed(t: TestContext): Promise<void> {
  await t.tables.write(ENTITIES, ENTITY_ROWS)
  await t.tables.write(RELATIONSHIPS, RELATIONSHIP_ROWS)
  await t.tables.write(COMMUNITIES, COMMUNITY_ROWS)
  await t.tables.write(
    TEXT_UNITS,
    TEXTS.map((text, i) => ({
      id: `t${i}`,
      human_readable_id: i,
      text,
      n_tokens: 20,
      document_id: 'd',
      entity_ids: [],
      relationship_ids: [],
      covariate_ids: [],
    })),
  )
}

describe('create_community_reports_text without a chat model (offline)', () => {
  it('writes extractive reports, finalized like the LLM ones', async () => {
    const t = await createTestContext({
      settingsYaml: 'completion_models: {}\ncommunity_reports:\n  completion_model_id: null\n',
    })
    await seed(t)
    const result = await createCommunityReportsText.run(t.ctx)
    const rows = await t.tables.read(COMMUNITY_REPORTS)
    expect(result.summary).toEqual({ writer: 'extractive', failed: 0 })
    expect(rows.map((r) => [r.level, r.community])).toEqual([
      [1, 2],
      [0, 0],
      [0, 1],
    ])
    for (const row of rows) {
      expect(row.id).toBe(reportId(row.full_content))
      expect(row.summary.length).toBeGreaterThan(0)
      expect(row.findings.length).toBeGreaterThanOrEqual(1)
      expect(JSON.parse(row.full_content_json).title).toBe(row.title)
    }
    expect(rows[0].parent).toBe(0)
    expect(rows[1].children).toEqual([2])
    expect(rows[2].title).toBe('Scrooge and Marley')
  })

  it('also falls back when completion_model_id names a model that is not configured', async () => {
    const t = await createTestContext({
      settingsYaml: 'completion_models: {}\ncommunity_reports:\n  completion_model_id: missing\n',
    })
    await seed(t)
    expect((await createCommunityReportsText.run(t.ctx)).summary?.writer).toBe('extractive')
  })
})

const MICROSOFT = '  text_units_per_report: 0\n  text_context_tokens: 0\n'

describe('create_community_reports_text with a chat model', () => {
  let llm: FakeLlm
  let failing: FakeLlm
  const failCommunity1: Responder = (req) =>
    req.kind === 'community_report_text' && req.messages.some((m) => m.content.includes('Marley was dead'))
      ? 'no JSON here'
      : undefined
  beforeAll(async () => {
    llm = await startFakeLlm()
    failing = await startFakeLlm({ responders: [failCommunity1] })
  })
  afterAll(async () => {
    await llm.close()
    await failing.close()
  })

  // Microsoft's fast method by default here (a report per community over whole units); `reports` adds keys.
  async function context(server: FakeLlm, reports = MICROSOFT): Promise<TestContext> {
    const t = await createTestContext({
      settingsYaml: `${fakeModelSettingsYaml(server.baseUrl, { maxRetries: 0 })}community_reports:\n${reports}`,
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow(createCommunityReportsText.name),
    })
    await seed(t)
    return t
  }

  it('asks for one structured report per community over its text-unit sources', async () => {
    const t = await context(llm)
    const result = await createCommunityReportsText.run(t.ctx)
    expect(result.summary).toEqual({
      writer: 'llm',
      failed: 0,
      model_reports: 3,
      extractive_reports: 0,
      reports_requested: 3,
      reused_renumbered: 0,
    })
    const rows = await t.tables.read(COMMUNITY_REPORTS)
    expect(rows.map((r) => r.community)).toEqual([2, 0, 1])
    const requests = llm.requests.filter((r) => r.kind === 'community_report_text')
    expect(requests).toHaveLength(3)
    const bodies = requests.map((r) => JSON.stringify(r.body))
    expect(bodies.every((b) => b.includes('-----SOURCES-----') && b.includes('json_schema'))).toBe(true)
    // Unit 0 is not dropped (the reference's falsy-id quirk is not reproduced).
    expect(bodies.some((b) => b.includes('0,Scrooge sat in the counting-house.'))).toBe(true)
    for (const row of rows) expect(row.id).toBe(reportId(row.full_content))
  })

  it('counts a failed community and fails beyond max_failed_fraction', async () => {
    const strict = await context(failing)
    await expect(createCommunityReportsText.run(strict.ctx)).rejects.toBeInstanceOf(WorkflowError)
    expect(strict.stats.failures.map((f) => f.item)).toEqual(['community 1'])

    const lenient = await context(failing, `${MICROSOFT}  max_failed_fraction: 0.5\n`)
    await createCommunityReportsText.run(lenient.ctx)
    expect((await lenient.tables.read(COMMUNITY_REPORTS)).map((r) => r.community)).toEqual([2, 0])
  })
})

describe('create_community_reports_text, cheap by default (text_units_per_report, text_context_tokens)', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm()
  })
  afterAll(() => llm.close())

  it('asks the model only for the communities spanning most units, over excerpts; the rest are extractive', async () => {
    const settings = `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}community_reports:\n  text_context_tokens: 60\n`
    const t = await createTestContext({
      settingsYaml: settings,
      models: (s, cache) =>
        createModelRegistry(s, { cache, log: SILENT_LOGGER }).forWorkflow(createCommunityReportsText.name),
    })
    await seed(t)
    const from = llm.requests.length
    const result = await createCommunityReportsText.run(t.ctx)
    // 3 text units, one report per 8: one model report, for community 0 (two units; the others have one).
    const requests = llm.requests.slice(from).filter((r) => r.kind === 'community_report_text')
    expect(requests).toHaveLength(1)
    expect(result.summary).toMatchObject({ writer: 'llm', failed: 0, model_reports: 1, extractive_reports: 2 })
    // A fifth of 60 tokens per unit: of unit 1 only its sentence naming most members (Tiny Tim, Bob Cratchit).
    const body = JSON.stringify(requests[0]!.body)
    expect(body).toContain('Tiny Tim rode upon the shoulder of Bob Cratchit.')
    expect(body).not.toContain('Camden Town')
    const rows = await t.tables.read(COMMUNITY_REPORTS)
    expect(rows.map((r) => r.community)).toEqual([2, 0, 1])

    // The other communities' reports are exactly the offline writer's.
    const offline = await createTestContext({
      settingsYaml: 'completion_models: {}\ncommunity_reports:\n  completion_model_id: null\n',
    })
    await seed(offline)
    await createCommunityReportsText.run(offline.ctx)
    const extractive = await offline.tables.read(COMMUNITY_REPORTS)
    const content = (r: (typeof rows)[number][]) => r.filter((x) => x.community !== 0).map((x) => x.full_content)
    expect(content(rows)).toEqual(content(extractive))
    expect(rows.find((r) => r.community === 0)!.full_content).not.toBe(
      extractive.find((r) => r.community === 0)!.full_content,
    )
  })
})
