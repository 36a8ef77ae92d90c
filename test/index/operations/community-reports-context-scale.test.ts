// The report step's shortcuts for large graphs give what the direct computations give: each
// community's relationships from one ranking of the whole table, the reports that fit found by
// bisection, predecessors asked one community at a time, lost content without a set per row.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { seededRng } from '../../../src/query/rng.js'
import { buildLocalContexts } from '../../../src/index/operations/community-reports/context.js'
import { csvLine, sectionHead } from '../../../src/index/operations/community-reports/csv.js'
import {
  predecessorOf,
  predecessors,
  rowName,
  rowsLosingContent,
} from '../../../src/index/operations/community-reports/stale-reuse.js'
import {
  identityText,
  rowKey,
  tableIdentityMaps,
} from '../../../src/index/operations/community-reports/stable-reuse.js'
import { reportFingerprint } from '../../../src/index/operations/community-reports/unchanged-reports.js'
import {
  buildCommunityContext,
  reportsTokens,
  type SubCommunity,
} from '../../../src/index/operations/community-reports/substitution.js'
import type { LocalContext } from '../../../src/index/operations/community-reports/context.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import type { CommunityRow, EntityRow, RelationshipRow } from '../../../src/model/index.js'
import { communityRow, entityRow } from '../../support/report-rows.js'

const entity = (i: number, units: string[] = []): EntityRow => entityRow(i, { type: 'person', degreeModulo: 7, units })

const community = (c: number, level: number, entityIds: string[]): CommunityRow =>
  communityRow(c, level, entityIds, '2026-01-15')

/**
 * 120 entities, 600 relationships (self-loops, repeated pairs, combined degrees with many ties), two
 * levels: level 0 covers entities 0-99 in 10 communities, level 1 entities 0-59 in 12, and E5 is in
 * two communities of level 1 (hand-made tables may do that).
 */
function graph() {
  const next = seededRng(42)
  const entities = Array.from({ length: 120 }, (_, i) => entity(i))
  const relationships: RelationshipRow[] = Array.from({ length: 600 }, (_, i) => {
    const source = `E${Math.floor(next() * 120)}`
    const target = i % 50 === 0 ? source : `E${Math.floor(next() * 120)}`
    const combined = Math.floor(next() * 8)
    return {
      id: `r${i}`,
      human_readable_id: 600 - i,
      source,
      target,
      description: `${source} and ${target}`,
      weight: 1,
      combined_degree: combined,
      text_unit_ids: [],
    }
  })
  const communities = [
    ...Array.from({ length: 10 }, (_, c) =>
      community(
        c,
        0,
        Array.from({ length: 10 }, (_, k) => `e${c * 10 + k}`),
      ),
    ),
    ...Array.from({ length: 12 }, (_, c) =>
      community(
        10 + c,
        1,
        Array.from({ length: 5 }, (_, k) => `e${c * 5 + k}`),
      ),
    ),
  ]
  communities[12]!.entity_ids.push('e5')
  return { entities, relationships, communities }
}

/** The direct computation: each community's edges gathered from its members' and ranked on their own. */
function directEdges(input: ReturnType<typeof graph>): Map<number, number[]> {
  const titleOf = new Map(input.entities.map((e) => [e.id, e.title]))
  const out = new Map<number, number[]>()
  for (const c of input.communities) {
    const level = new Set(
      input.communities.filter((o) => o.level === c.level).flatMap((o) => o.entity_ids.map((id) => titleOf.get(id))),
    )
    const members = new Set(c.entity_ids.map((id) => titleOf.get(id)))
    const edges = input.relationships.filter(
      (r) => level.has(r.source) && level.has(r.target) && (members.has(r.source) || members.has(r.target)),
    )
    edges.sort((a, b) => b.combined_degree - a.combined_degree || a.human_readable_id - b.human_readable_id)
    out.set(
      c.community,
      edges.map((e) => e.human_readable_id),
    )
  }
  return out
}

describe('local contexts from one ranking', () => {
  it('gives every community the relationships and order of gathering and ranking its own', () => {
    const input = graph()
    const contexts = buildLocalContexts({ ...input, claims: null })
    const expected = directEdges(input)
    for (const c of input.communities)
      expect(
        contexts.get(c.community)!.edges.map((e) => e.human_readable_id),
        `community ${c.community}`,
      ).toEqual(expected.get(c.community))
    // The check covers the cases it is meant to: self-loops and an entity in two communities of a level.
    expect(input.relationships.some((r) => r.source === r.target)).toBe(true)
    expect(contexts.get(12)!.edges.some((e) => e.source === 'E5' || e.target === 'E5')).toBe(true)
  })
})

describe('the reports that fit, by bisection', () => {
  const tokenizer = getTokenizer('o200k_base')
  const section = (subs: readonly SubCommunity[]): string =>
    sectionHead('Reports', ['community', 'full_content']) +
    subs.map((s) => csvLine([s.community, s.fullContent ?? ''])).join('')

  /** A parent whose own rows and every list of reports are over the budget but the first few. */
  function parent(reports: number): { local: LocalContext; subs: SubCommunity[] } {
    const members = new Map<string, { human_readable_id: number; title: string; description: string; degree: number }>()
    for (let i = 0; i < 200; i++)
      members.set(`M${i}`, { human_readable_id: i, title: `M${i}`, description: 'a member '.repeat(20), degree: 1 })
    const subs = Array.from({ length: reports }, (_, i) => ({
      community: 100 + i,
      size: reports - i,
      members: new Set([`M${i}`]),
      fullContent: `# Report ${i}\n\n${'what the sub-community did '.repeat(5 + (i % 4))}`,
    }))
    return { local: { community: 1, level: 0, members, edges: [], claims: new Map() }, subs }
  }

  it('keeps the longest list whose section fits, as adding one report at a time does', () => {
    for (const budget of [150, 400, 900, 2000]) {
      const { local, subs } = parent(30)
      const context = buildCommunityContext(local, subs, budget, (t) => tokenizer.count(t))
      let kept = 1
      while (kept < subs.length && tokenizer.count(section(subs.slice(0, kept + 1))) <= budget) kept++
      expect(context.substituted, `budget ${budget}`).toEqual(subs.slice(0, kept).map((s) => s.community))
      expect(context.tokens).toBeLessThanOrEqual(Math.max(budget, tokenizer.count(section(subs.slice(0, 1)))))
    }
  })

  it('counts a list of reports as its lines summed: the count of the section as a whole', () => {
    const texts = [
      '# Plain\n\nNo quotes here',
      '# With "quotes", commas, and a trailing newline\n\nSaid "no",\n',
      '',
      '12 starts with digits, ends with digits 345',
      '  leading spaces and trailing spaces  ',
      '# Ünïcödé — “typographic” quotes — 東京\r\nCRLF inside',
      'ends with a quote"',
      '\n\nstarts with blank lines',
      '[Data: Entities (1, 2, +more)]\n',
    ]
    const subs: SubCommunity[] = texts.map((fullContent, i) => ({
      community: 7 + i * 13,
      size: 1,
      members: new Set(),
      fullContent,
    }))
    const tokensOf = reportsTokens((t) => tokenizer.count(t))
    for (let from = 0; from < subs.length; from++)
      for (let to = from + 1; to <= subs.length; to++)
        expect(tokensOf(subs.slice(from, to)), `reports ${from}..${to}`).toBe(
          tokenizer.count(section(subs.slice(from, to))),
        )
  })

  it('counts a few lists of reports, not every one', () => {
    const { local, subs } = parent(60)
    const sections: string[] = []
    buildCommunityContext(local, subs, 900, (text) => {
      if (text.startsWith('-----Reports-----') && text.includes(',"# Report') && !text.includes('-----Entities-----'))
        sections.push(text)
      return tokenizer.count(text)
    })
    // Each attempt's list is counted from its reports' lines (each report once); the longest list
    // that fits is then found by bisection over 1..60: a handful of whole sections are counted, where
    // counting each attempt's list and then each longer list one at a time counted ~45.
    expect(sections.length).toBeGreaterThan(0)
    expect(sections.length).toBeLessThanOrEqual(8)
  })
})

describe('predecessors one community at a time', () => {
  it('answers each community as the whole mapping does, and nothing for an unknown one', () => {
    const before = graph()
    const now = graph()
    // Members move between communities of level 0, and one community is renumbered.
    now.communities[0] = community(0, 0, ['e0', 'e1', 'e15', 'e16', 'e17', 'e18'])
    now.communities[1] = community(30, 0, ['e10', 'e11', 'e12'])
    const previous = { communities: before.communities, entities: before.entities }
    const current = { communities: now.communities, entities: now.entities }
    const all = predecessors(previous, current)
    const one = predecessorOf(previous, current)
    expect(all.get(0)).toBe(1)
    expect(all.get(30)).toBe(1)
    for (const c of now.communities) expect(one(c.community)).toBe(all.get(c.community))
    expect(one(999)).toBeUndefined()
  })
})

describe('rows losing content', () => {
  it('finds a row that lost a text unit whatever the order of its list, and no row that kept them all', () => {
    const previous = {
      entities: [entity(1, ['t1', 't2']), entity(2, ['t3', 't4']), entity(3, ['t5'])],
      relationships: [],
      claims: null,
    }
    const current = {
      entities: [entity(1, ['t2', 't9', 't1']), entity(2, ['t4', 't8']), entity(3, ['t5', 't6'])],
      relationships: [],
      claims: null,
    }
    expect([...rowsLosingContent(previous, current)]).toEqual([rowName(rowKey('Entities', 'E2'))])
  })
})

describe('report fingerprints', () => {
  it('hash the same bytes as each row and sub-community written as JSON in turn (entries recorded earlier still replay)', () => {
    const input = graph()
    const contexts = buildLocalContexts({ ...input, claims: null })
    const maps = tableIdentityMaps(input.entities, input.relationships, null)
    const local = contexts.get(12)!
    const subs: SubCommunity[] = [
      { community: 3, size: 2, members: new Set(['E1', 'E2']), fullContent: '# "Quoted"\n\n[Data: Entities (1, 2)]' },
      { community: 4, size: 1, members: new Set(['E3']), fullContent: undefined },
    ]
    const expected = createHash('sha256').update('basis')
    for (const e of local.members.values())
      expected.update(JSON.stringify(['e', e.human_readable_id, e.title, e.description, e.degree]))
    for (const r of local.edges)
      expected.update(JSON.stringify(['r', r.human_readable_id, r.source, r.target, r.description, r.combined_degree]))
    for (const s of subs) {
      const named = s.fullContent === undefined ? null : (identityText(s.fullContent, maps) ?? null)
      expected.update(JSON.stringify(['s', s.community, s.size, [...s.members], s.fullContent ?? null, named]))
    }
    expect(local.edges.length).toBeGreaterThan(0)
    expect(reportFingerprint(local, subs, maps, 'basis')).toBe(expected.digest('hex'))
  })
})
