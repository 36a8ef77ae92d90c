/**
 * A Christmas Carol through the fast operations (noun graph → prune → finalize_graph →
 * Leiden communities → extractive reports), with the demo's prune settings.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { buildNounGraph } from '../../../src/index/operations/build-noun-graph.js'
import { createCommunities } from '../../../src/index/operations/create-communities.js'
import { createFinalTextUnits } from '../../../src/index/operations/create-final-text-units.js'
import { writeExtractiveReports } from '../../../src/index/operations/extractive-report/index.js'
import { normalizeWhitespace, splitSentences } from '../../../src/index/operations/extractive-report/sentences.js'
import { finalizeGraph } from '../../../src/index/operations/finalize-graph.js'
import { createNounPhraseExtractor } from '../../../src/index/operations/noun-phrases/index.js'
import { pruneGraph } from '../../../src/index/operations/prune-graph.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import type { CommunityReportDraft } from '../../../src/index/operations/community-reports/render.js'
import type { CommunityRow, EntityRow, RelationshipRow, TextUnitRow } from '../../../src/model/index.js'
import { describeShared, PROJECT_ROOT, sharedPath } from '../../support/shared.js'

/** Token windows like create_base_text_units (size/overlap in o200k tokens). */
function chunk(
  text: string,
  size: number,
  overlap: number,
): { id: string; document_id: string; text: string; n_tokens: number }[] {
  const tok = getTokenizer('o200k_base')
  const tokens = tok.encode(text)
  const out = []
  for (let start = 0; start < tokens.length; start += size - overlap) {
    const part = tokens.subarray(start, Math.min(start + size, tokens.length))
    out.push({ id: `unit-${out.length}`, document_id: 'carol', text: tok.decode(part), n_tokens: part.length })
    if (start + size >= tokens.length) break
  }
  return out
}

describeShared('fast method on A Christmas Carol', () => {
  let entities: EntityRow[]
  let relationships: RelationshipRow[]
  let communities: CommunityRow[]
  let textUnits: TextUnitRow[]
  let reports: CommunityReportDraft[]
  let rawTitles: Set<string>

  beforeAll(() => {
    const started = performance.now()
    const { settings } = loadConfig({ root: join(PROJECT_ROOT, 'fixtures', 'demo'), env: {} })
    const book = readFileSync(sharedPath('corpora', 'a-christmas-carol.txt'), 'utf8')
    const units = chunk(book, settings.chunking.size, settings.chunking.overlap)
    const extractor = createNounPhraseExtractor(settings.extract_graph_nlp.text_analyzer)
    const phrases = units.map((u) => ({ id: u.id, phrases: extractor.extract(u.text) }))
    const graph = buildNounGraph(phrases, settings.extract_graph_nlp)
    rawTitles = new Set(graph.entities.map((e) => e.title))
    const pruned = pruneGraph(graph.entities, graph.relationships, settings.prune_graph)
    ;({ entities, relationships } = finalizeGraph(pruned.entities, pruned.relationships))
    communities = createCommunities(entities, relationships, settings.cluster_graph, '2026-01-15', undefined).rows
    textUnits = createFinalTextUnits(units, entities, relationships, undefined)
    reports = writeExtractiveReports(
      { communities, entities, relationships, textUnits },
      { wordDelimiter: settings.extract_graph_nlp.text_analyzer.word_delimiter },
    )
    const seconds = (performance.now() - started) / 1000
    console.log(
      `Christmas Carol (fast): ${units.length} text units, ${graph.entities.length} → ${entities.length} entities, ` +
        `${graph.relationships.length} → ${relationships.length} relationships, ${communities.length} communities ` +
        `(levels ${[...new Set(communities.map((c) => c.level))].join(',')}), ${reports.length} reports in ${seconds.toFixed(1)} s`,
    )
  }, 120_000)

  it('keeps the main characters as entities (upper-cased noun phrases)', () => {
    const titles = new Set(entities.map((e) => e.title))
    for (const name of ['SCROOGE', 'BOB CRATCHIT', 'MARLEY', 'TINY TIM', 'FEZZIWIG']) {
      expect(rawTitles.has(name), `${name} extracted`).toBe(true)
      expect(titles.has(name), `${name} kept after pruning`).toBe(true)
    }
  })

  it('finds connected communities', () => {
    expect(communities.length).toBeGreaterThan(1)
    const byId = new Map(relationships.map((r) => [r.id, r]))
    const titleOf = new Map(entities.map((e) => [e.id, e.title]))
    for (const c of communities) {
      const members = new Set(c.entity_ids.map((id) => titleOf.get(id)!))
      const adjacency = new Map<string, string[]>([...members].map((m) => [m, []]))
      for (const r of c.relationship_ids.map((id) => byId.get(id)!)) {
        adjacency.get(r.source)!.push(r.target)
        adjacency.get(r.target)!.push(r.source)
      }
      const start = [...members][0]!
      const seen = new Set([start])
      const stack = [start]
      while (stack.length > 0)
        for (const next of adjacency.get(stack.pop()!)!) if (!seen.has(next)) seen.add(next), stack.push(next)
      expect(seen.size, `community ${c.community} is connected`).toBe(members.size)
    }
  })

  it('writes a non-empty extractive report for every community with text units, summarising its own text', () => {
    const unitText = new Map(textUnits.map((u) => [u.id, normalizeWhitespace(u.text)]))
    const withText = communities.filter((c) => c.text_unit_ids.length > 0)
    expect(reports.length).toBe(communities.length)
    for (const c of withText) {
      const report = reports.find((r) => r.community === c.community)!
      expect(report.title.length).toBeGreaterThan(0)
      expect(report.findings.length).toBeGreaterThanOrEqual(1)
      const own = c.text_unit_ids.map((id) => unitText.get(id)!)
      const sentences = splitSentences(report.summary)
      expect(sentences.length, `community ${c.community}`).toBeGreaterThan(0)
      for (const s of sentences)
        expect(
          own.some((t) => t.includes(s)),
          `community ${c.community}: ${s}`,
        ).toBe(true)
    }
    const scrooge = reports.find((r) => r.title.includes('Scrooge'))
    expect(scrooge, 'a report is titled after Scrooge').toBeDefined()
  })
})
