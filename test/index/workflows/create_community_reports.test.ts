import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { WorkflowError } from '../../../src/errors.js'
import { reportId, sharedContentReportId } from '../../../src/index/operations/community-reports/render.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { createCommunityReports } from '../../../src/index/workflows/create_community_reports.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { COMMUNITIES, COMMUNITY_REPORTS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { duckDescribe } from '../../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'

const INPUTS = ['entities', 'relationships', 'communities', 'covariates']

/** Answers the first report prompt it sees, and every retry of it, with text that is not a report. */
function failFirstReport(): Responder {
  let failing: string | undefined
  return (req) => {
    if (req.kind !== 'community_report') return undefined
    const prompt = req.messages.map((m) => m.content).join('\n')
    failing ??= prompt
    return prompt === failing ? 'no JSON here' : undefined
  }
}

describeShared('create_community_reports over the replayed Christmas Carol answers', () => {
  let llm: FakeLlm
  let failing: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ replay: 'christmas-carol' })
    failing = await startFakeLlm({ replay: 'christmas-carol', responders: [failFirstReport()] })
  })
  afterAll(async () => {
    await llm.close()
    await failing.close()
  })

  async function run(server: FakeLlm, extraYaml = '') {
    const ref = sharedPath('reference', 'christmas-carol-index')
    const files = Object.fromEntries(
      INPUTS.map((n) => [`output/${n}.parquet`, readFileSync(join(ref, `${n}.parquet`))]),
    )
    const settingsYaml = `${fakeModelSettingsYaml(server.baseUrl, { maxRetries: 1 })}extract_claims:\n  enabled: true\n${extraYaml}`
    const t = await createTestContext({
      settingsYaml,
      files,
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow(createCommunityReports.name),
    })
    return { t, result: createCommunityReports.run(t.ctx) }
  }

  it('writes one report per community, rendered and ordered like the reference', async () => {
    const { t, result } = await run(llm)
    await result
    const ref = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
    const reference = await ref.read(COMMUNITY_REPORTS)
    const rows = await t.tables.read(COMMUNITY_REPORTS)

    expect(await duckDescribe(t.tables.path(COMMUNITY_REPORTS.name))).toEqual(
      await duckDescribe(sharedPath('reference', 'christmas-carol-index', 'community_reports.parquet')),
    )
    expect(rows.map((r) => [r.level, r.community])).toEqual(reference.map((r) => [r.level, r.community]))
    for (const row of rows) {
      // The replay answers with the reference report of the best-matching community (titles repeat across levels).
      const source = reference.find((r) => r.title === row.title && r.full_content === row.full_content)!
      expect(source).toBeDefined()
      expect(row.full_content).toBe(source.full_content)
      expect(row.full_content_json).toBe(source.full_content_json)
      expect(row.findings).toEqual(source.findings)
      expect(row.rank).toBe(source.rank)
      // A report repeated at another level keeps an id of its own (the reference would share one).
      const shared = rows.filter((r) => r.full_content === row.full_content).length > 1
      expect(row.id).toBe(
        shared ? sharedContentReportId(row.community, row.level, row.full_content) : reportId(row.full_content),
      )
    }
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
    const communities = new Map((await ref.read(COMMUNITIES)).map((c) => [c.community, c]))
    for (const row of rows) {
      const c = communities.get(row.community)!
      expect([row.parent, row.children, row.size, row.period, row.human_readable_id]).toEqual([
        c.parent,
        c.children,
        c.size,
        c.period,
        c.community,
      ])
    }
    expect(t.stats.failures).toEqual([])

    const prompts = llm.requests.filter((r) => r.kind === 'community_report').map((r) => JSON.stringify(r.body))
    expect(prompts).toHaveLength(122)
    expect(prompts.some((p) => p.includes('-----Claims-----'))).toBe(true)
    // A few parents exceed max_input_length (8000) with their own rows and use their sub-community reports.
    expect(prompts.some((p) => p.includes('-----Reports-----\\ncommunity,full_content\\n'))).toBe(true)
    expect(prompts.every((p) => p.includes('json_schema'))).toBe(true)
  }, 120_000)

  it('starts a community as soon as its own sub-communities are reported, not when the whole level below is', async () => {
    // The first report request seen (one of the deepest communities, 120 or 121) is answered 1.5 s late.
    let slowPrompt: string | undefined
    const slow = await startFakeLlm({
      replay: 'christmas-carol',
      latency: {
        extraMs: (req) => {
          if (req.kind !== 'community_report') return 0
          const prompt = req.messages.map((m) => m.content).join('\n')
          slowPrompt ??= prompt
          return prompt === slowPrompt ? 1500 : 0
        },
      },
    })
    try {
      const { t, result } = await run(slow)
      await result
      const reports = slow.requests.filter((r) => r.kind === 'community_report')
      const slowest = reports.reduce((a, b) => (b.endedAt - b.startedAt > a.endedAt - a.startedAt ? b : a))
      const during = reports.filter((r) => r !== slowest && r.startedAt < slowest.endedAt)
      const after = reports.filter((r) => r.startedAt >= slowest.endedAt)
      // Level by level, only the other deepest community could run beside the slow one.
      expect(during.length).toBeGreaterThan(2)
      // Its ancestors (97 at level 2, then 41, then its parent) wait for it.
      expect(after.length).toBeGreaterThanOrEqual(3)
      const rows = await t.tables.read(COMMUNITY_REPORTS)
      expect(rows).toHaveLength(122)
    } finally {
      await slow.close()
    }
  }, 120_000)

  it('fails the workflow when a community report fails, unless within max_failed_fraction', async () => {
    // The deepest level (communities 120 and 121) is requested first; one of them fails.
    const strict = await run(failing)
    await expect(strict.result).rejects.toBeInstanceOf(WorkflowError)
    const failed = strict.t.stats.failures.map((f) => f.item)
    expect(failed).toHaveLength(1)
    expect(['community 120', 'community 121']).toContain(failed[0])
    expect(await strict.t.tables.has(COMMUNITY_REPORTS.name)).toBe(false)

    const lenient = await run(failing, 'community_reports:\n  max_failed_fraction: 0.05\n')
    await lenient.result
    const rows = await lenient.t.tables.read(COMMUNITY_REPORTS)
    expect(rows).toHaveLength(121)
    expect(rows.some((r) => `community ${r.community}` === failed[0])).toBe(false)
    expect(lenient.t.stats.failures.map((f) => f.item)).toEqual(failed)
  }, 120_000)
})
