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
import { BASE_TEXT_UNITS, COMMUNITIES, COMMUNITY_REPORTS, ENTITIES } from '../../../src/model/index.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')

it('runs extract_graph_nlp → prune_graph → finalize_graph → communities → text units → extractive reports on the demo', async () => {
  const files: Record<string, string> = { 'settings.yaml': readFileSync(join(DEMO, 'settings.yaml'), 'utf8') }
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
  expect(t.settings.community_reports.completion_model_id).toBeNull()
  expect(t.settings.method).toBe('fast')
  for (const workflow of [extractGraphNlp, pruneGraph, finalizeGraph, createCommunities, createFinalTextUnits, createCommunityReportsText]) {
    await workflow.run(t.ctx)
  }
  const titles = new Set((await t.tables.read(ENTITIES)).map((e) => e.title))
  for (const name of ['MARTA QUILL', 'PORT ALDWICK', 'HARBOUR COUNCIL']) expect(titles.has(name), name).toBe(true)
  const communities = await t.tables.read(COMMUNITIES)
  const reports = await t.tables.read(COMMUNITY_REPORTS)
  expect(communities.length).toBeGreaterThan(1)
  expect(reports.map((r) => r.community).sort((a, b) => a - b)).toEqual(communities.map((c) => c.community).sort((a, b) => a - b))
  expect(reports.every((r) => r.summary.length > 0 && r.findings.length >= 1)).toBe(true)
  expect(t.stats.failures).toEqual([])
  console.log(`demo (fast): ${units.length} text units, ${titles.size} entities, ${communities.length} communities; top report: ${reports.find((r) => r.level === 0)?.title}`)
}, 60_000)
