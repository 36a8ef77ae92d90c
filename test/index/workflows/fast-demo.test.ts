/**
 * The fast workflows chained over the demo corpus with fixtures/demo/settings.yaml (text units
 * chunked here; loading and chunking belong to other workflows): no model, no network.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import { createCommunities } from '../../../src/index/workflows/create_communities.js'
import { createCommunityReportsText } from '../../../src/index/workflows/create_community_reports_text.js'
import { createFinalTextUnits } from '../../../src/index/workflows/create_final_text_units.js'
import { extractGraphNlp } from '../../../src/index/workflows/extract_graph_nlp.js'
import { finalizeGraph } from '../../../src/index/workflows/finalize_graph.js'
import { pruneGraph } from '../../../src/index/workflows/prune_graph.js'
import {
  BASE_TEXT_UNITS,
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  type CommunityRow,
  type RelationshipRow,
} from '../../../src/model/index.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { createTestContext, type TestContext } from '../../support/workflow-context.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')

/** Runs the chain on the demo corpus with the demo settings, `edit` applied to settings.yaml. */
async function runDemo(edit: (settings: string) => string = (s) => s): Promise<{ t: TestContext; units: number }> {
  const files: Record<string, string> = { 'settings.yaml': edit(readFileSync(join(DEMO, 'settings.yaml'), 'utf8')) }
  const t = await createTestContext({ files })
  const tok = getTokenizer(t.settings.chunking.encoding_model)
  const units = []
  for (const name of readdirSync(join(DEMO, 'input')).sort()) {
    const tokens = tok.encode(readFileSync(join(DEMO, 'input', name), 'utf8'))
    const { size, overlap } = t.settings.chunking
    for (let start = 0; start < tokens.length; start += size - overlap) {
      const part = tokens.subarray(start, Math.min(start + size, tokens.length))
      units.push({ id: `${name}-${start}`, document_id: name, text: tok.decode(part), n_tokens: part.length })
      if (start + size >= tokens.length) break
    }
  }
  await t.tables.write(BASE_TEXT_UNITS, units)
  for (const workflow of [
    extractGraphNlp,
    pruneGraph,
    finalizeGraph,
    createCommunities,
    createFinalTextUnits,
    createCommunityReportsText,
  ]) {
    await workflow.run(t.ctx)
  }
  return { t, units: units.length }
}

/** True when the community's members are joined by its own relationships of positive weight. */
function connectedByPositiveWeights(
  community: CommunityRow,
  titleOf: Map<string, string>,
  rels: Map<string, RelationshipRow>,
): boolean {
  const adj = new Map<string, string[]>()
  for (const id of community.relationship_ids) {
    const r = rels.get(id)
    if (!r || !(r.weight > 0)) continue
    adj.set(r.source, [...(adj.get(r.source) ?? []), r.target])
    adj.set(r.target, [...(adj.get(r.target) ?? []), r.source])
  }
  const members = community.entity_ids.map((id) => titleOf.get(id) ?? id)
  const seen = new Set([members[0]])
  const stack = [members[0]]
  while (stack.length > 0) {
    for (const u of adj.get(stack.pop() as string) ?? []) {
      if (!seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return members.every((m) => seen.has(m))
}

it('runs extract_graph_nlp → prune_graph → finalize_graph → communities → text units → extractive reports on the demo', async () => {
  const { t, units } = await runDemo()
  expect(t.settings.community_reports.completion_model_id).toBeNull()
  expect(t.settings.method).toBe('fast')
  const titles = new Set((await t.tables.read(ENTITIES)).map((e) => e.title))
  for (const name of ['MARTA QUILL', 'PORT ALDWICK', 'HARBOUR COUNCIL']) expect(titles.has(name), name).toBe(true)
  const communities = await t.tables.read(COMMUNITIES)
  const reports = await t.tables.read(COMMUNITY_REPORTS)
  expect(communities.length).toBeGreaterThan(1)
  expect(reports.map((r) => r.community).sort((a, b) => a - b)).toEqual(
    communities.map((c) => c.community).sort((a, b) => a - b),
  )
  expect(reports.every((r) => r.summary.length > 0 && r.findings.length >= 1)).toBe(true)
  expect(t.stats.failures).toEqual([])
  console.log(
    `demo (fast): ${units} text units, ${titles.size} entities, ${communities.length} communities; top report: ${reports.find((r) => r.level === 0)?.title}`,
  )
}, 60_000)

it('clusters the demo with every PMI weight kept (min_edge_weight_pct 0): negative pairs are left out with a warning', async () => {
  const { t } = await runDemo((s) => s.replace(/min_edge_weight_pct: \d+/, 'min_edge_weight_pct: 0'))
  expect(t.settings.prune_graph.min_edge_weight_pct).toBe(0)
  const relationships = await t.tables.read(RELATIONSHIPS)
  const nonPositive = relationships.filter((r) => r.weight <= 0).length
  // The relationships table keeps them; only clustering leaves them out.
  expect(nonPositive).toBeGreaterThan(0)
  expect(t.stats.warnings).toContainEqual(
    expect.stringMatching(new RegExp(`^${nonPositive} relationships with weight <= 0 left out of clustering`)),
  )
  const communities = await t.tables.read(COMMUNITIES)
  expect(communities.length).toBeGreaterThan(1)
  const titleOf = new Map((await t.tables.read(ENTITIES)).map((e) => [e.id, e.title]))
  const rels = new Map(relationships.map((r) => [r.id, r]))
  for (const c of communities)
    expect(connectedByPositiveWeights(c, titleOf, rels), `community ${c.community}`).toBe(true)
  expect((await t.tables.read(COMMUNITY_REPORTS)).length).toBe(communities.length)
  expect(t.stats.failures).toEqual([])
}, 60_000)
