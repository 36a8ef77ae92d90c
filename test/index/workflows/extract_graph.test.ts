import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createModelRegistry, type ModelRegistry } from '../../../src/index/run/models.js'
import { RAW_ENTITIES, RAW_RELATIONSHIPS } from '../../../src/model/raw-graph.js'
import { entityId } from '../../../src/index/operations/graph-ids.js'
import type { Workflow } from '../../../src/index/workflow.js'
import { extractCovariates } from '../../../src/index/workflows/extract_covariates.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { finalizeGraph } from '../../../src/index/workflows/finalize_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, COVARIATES, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { EXACT_TITLES } from '../../support/exact-titles.js'
import { fakeModelSettingsYaml, replayExpectations, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../../support/shared.js'
import { createTestContext, type TestContext } from '../../support/workflow-context.js'

const WORKFLOWS: readonly Workflow[] = [extractGraph, finalizeGraph, extractCovariates]
const OUTPUTS = ['entities', 'relationships', 'raw_entities', 'raw_relationships', 'covariates']

interface PipelineRun {
  root: string
  contexts: Record<string, TestContext>
  registry: ModelRegistry
  requests: number
}

describeShared('extract_graph, finalize_graph and extract_covariates over the replayed Christmas Carol answers', () => {
  let llm: FakeLlm
  let first: PipelineRun
  let second: PipelineRun
  const ref = () => new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))

  /** Runs the three workflows in-process; `root` reuses a project (and its cache) from an earlier run. */
  async function runPipeline(root?: string): Promise<PipelineRun> {
    const before = llm.requests.length
    const units = (await ref().read(TEXT_UNITS)).map((u) => ({
      id: u.id,
      document_id: u.document_id,
      text: u.text,
      n_tokens: u.n_tokens,
    }))
    const settingsYaml = `${fakeModelSettingsYaml(llm.baseUrl)}extract_graph:\n  max_gleanings: 1\nextract_claims:\n  enabled: true\nsnapshots:\n  graphml: true\n  raw_graph: true\n${EXACT_TITLES}`
    const files = { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, units) }
    let registry: ModelRegistry | undefined
    const contexts: Record<string, TestContext> = {}
    let projectRoot = root
    for (const workflow of WORKFLOWS) {
      const t = await createTestContext({
        ...(projectRoot === undefined ? { settingsYaml, files } : { root: projectRoot }),
        models: (settings, cache) =>
          (registry ??= createModelRegistry(settings, { cache, log: SILENT_LOGGER })).forWorkflow(workflow.name),
      })
      projectRoot = t.root
      await workflow.run(t.ctx)
      contexts[workflow.name] = t
    }
    return { root: projectRoot!, contexts, registry: registry!, requests: llm.requests.length - before }
  }

  beforeAll(async () => {
    llm = await startFakeLlm({ replay: 'christmas-carol' })
    first = await runPipeline()
    second = await runPipeline(first.root)
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('extracts exactly the reference entities, with their types and text units', async () => {
    const reference = await ref().read(ENTITIES)
    const entities = await first.contexts.finalize_graph!.tables.read(ENTITIES)
    expect(entities.map((e) => e.title).sort()).toEqual(reference.map((e) => e.title).sort())
    const byTitle = new Map(reference.map((e) => [e.title, e]))
    for (const e of entities) {
      const r = byTitle.get(e.title)!
      expect([e.title, e.type, e.text_unit_ids, e.frequency]).toEqual([r.title, r.type, r.text_unit_ids, r.frequency])
      expect(e.id).toBe(entityId(e.title))
    }
    // The replay sends, per unit, a share of the reference description; an item described differently
    // in several units is summarised (the fake answers with the reference description), one described
    // the same everywhere keeps that text. Either way the result is the reference description.
    const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim()
    expect(entities.filter((e) => oneLine(e.description) !== oneLine(byTitle.get(e.title)!.description))).toEqual([])
    expect(first.contexts.extract_graph!.stats.counters.summary_calls).toBe(itemsDescribedDifferently())
    expect(entities.map((e) => e.human_readable_id)).toEqual(entities.map((_, i) => i))
  })

  it('extracts the reference relationships between extracted entities, weighted by the sum of replayed strengths', async () => {
    const reference = await ref().read(RELATIONSHIPS)
    const titles = new Set((await ref().read(ENTITIES)).map((e) => e.title))
    // The reference predates the orphan filter: 84 of its relationships name an endpoint that is not
    // an entity. The replay cannot produce those (it only sends relationships between entities).
    const reachable = reference.filter((r) => titles.has(r.source) && titles.has(r.target))
    expect(reference.length - reachable.length).toBe(84)
    const relationships = await first.contexts.finalize_graph!.tables.read(RELATIONSHIPS)
    const key = (r: { source: string; target: string }) => `${r.source} -> ${r.target}`
    expect(relationships.map(key).sort()).toEqual(reachable.map(key).sort())

    const strengths = new Map<string, number>()
    for (const unit of Object.values(replayExpectations())) {
      for (const r of unit.relationships) strengths.set(`${unit.textUnitId}|${key(r)}`, r.strength)
    }
    const byKey = new Map(reachable.map((r) => [key(r), r]))
    for (const r of relationships) {
      const expected = byKey.get(key(r))!.text_unit_ids.reduce((sum, id) => sum + strengths.get(`${id}|${key(r)}`)!, 0)
      expect(r.weight, key(r)).toBe(expected)
      expect(r.text_unit_ids).toEqual(byKey.get(key(r))!.text_unit_ids)
      expect(r.description.replace(/\s*\n\s*/g, ' ').trim()).toBe(
        byKey
          .get(key(r))!
          .description.replace(/\s*\n\s*/g, ' ')
          .trim(),
      )
    }
  })

  it('reports calls, tokens and parse drops; writes raw snapshots and GraphML', async () => {
    const stats = first.contexts.extract_graph!.stats
    expect(stats.counters.parse_drops).toBe(0)
    expect(stats.counters.extraction_calls).toBe(84)
    expect(stats.failures).toEqual([])
    const usage = Object.values(first.registry.usageByWorkflow().extract_graph ?? {})
    expect(usage.reduce((n, u) => n + u.calls, 0)).toBe(84 + (stats.counters.summary_calls ?? 0))
    expect(usage.reduce((n, u) => n + u.promptTokens + u.completionTokens, 0)).toBeGreaterThan(0)
    const tables = first.contexts.extract_graph!.tables
    expect((await tables.read(RAW_ENTITIES)).length).toBe(529)
    expect((await tables.read(RAW_RELATIONSHIPS)).length).toBe(894)
    const graphml = await readFile(join(tables.location, 'graph.graphml'), 'utf8')
    expect(graphml.match(/<node /g)?.length).toBeGreaterThan(0)
  })

  it('extracts the replayed claims', async () => {
    const covariates = await first.contexts.extract_covariates!.tables.read(COVARIATES)
    const reference = await ref().read(COVARIATES)
    // Subjects are upper-cased like entity titles (the reference keeps e.g. `GRUEl` as written).
    const claimKey = (c: { text_unit_id: string; subject_id: string | null; type: string | null }) =>
      `${c.text_unit_id}|${c.subject_id?.toUpperCase()}|${c.type}`
    // The reference keeps 25 junk rows (a sentence as subject, every other field null) made from
    // chatter; the replay sends them as tuples with empty descriptions, which we keep as claims.
    const real = reference.filter((c) => c.status !== null)
    expect(reference.length - real.length).toBe(25)
    const ours = covariates.filter((c) => c.description !== null)
    expect(ours.map(claimKey)).toEqual(real.map(claimKey))
    // One junk row ('Good afternoon,' said Scrooge.) occurs twice in its unit; repeated claims are merged.
    expect(covariates.length - ours.length).toBe(24)
    expect(covariates.map((c) => c.human_readable_id)).toEqual(covariates.map((_, i) => i))
    expect(first.contexts.extract_covariates!.stats.counters.parse_drops).toBe(0)
  })

  it('a second run with a warm cache makes no HTTP request and writes byte-identical tables', async () => {
    expect(first.requests).toBeGreaterThan(0)
    expect(second.requests).toBe(0)
    for (const name of OUTPUTS) {
      const a = await readFile(join(first.contexts.extract_graph!.tables.location, `${name}.parquet`))
      const b = await readFile(join(second.contexts.extract_graph!.tables.location, `${name}.parquet`))
      expect(b.equals(a), name).toBe(true)
    }
  })
})

/** Entities and relationships whose replayed descriptions differ between units: each costs one summary call. */
function itemsDescribedDifferently(): number {
  const descriptions = new Map<string, Set<string>>()
  const note = (key: string, description: string) =>
    descriptions.set(key, (descriptions.get(key) ?? new Set()).add(description))
  for (const unit of Object.values(replayExpectations())) {
    for (const e of unit.entities) note(`e|${e.title}`, e.description)
    for (const r of unit.relationships) note(`r|${r.source}|${r.target}`, r.description)
  }
  return [...descriptions.values()].filter((set) => set.size >= 2).length
}
