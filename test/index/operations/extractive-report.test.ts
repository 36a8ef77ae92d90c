import { describe, expect, it } from 'vitest'
import {
  writeExtractiveReports,
  type ExtractiveReportInput,
} from '../../../src/index/operations/extractive-report/index.js'
import { normalizeWhitespace, splitSentences } from '../../../src/index/operations/extractive-report/sentences.js'
import { displayName } from '../../../src/index/operations/extractive-report/text.js'
import { textRank } from '../../../src/index/operations/extractive-report/textrank.js'
import { finalizeReports, renderFullContent } from '../../../src/index/operations/community-reports/render.js'
import type { CommunityRow } from '../../../src/model/communities.js'

describe('splitSentences', () => {
  it('splits on terminal punctuation before a capital, keeping abbreviations, initials and dialogue together', () => {
    const text =
      'Mr. Scrooge sat still.  He was\ncold! "Bah," said Scrooge. "Humbug!" said J. B. Lippincott. Was it so? Yes.\n\nCHAPTER TWO'
    expect(splitSentences(text)).toEqual([
      'Mr. Scrooge sat still.',
      'He was cold!',
      '"Bah," said Scrooge.',
      '"Humbug!" said J. B. Lippincott.',
      'Was it so?',
      'Yes.',
      'CHAPTER TWO',
    ])
  })
})

describe('textRank', () => {
  it('ranks the sentence sharing most words with the others highest, and follows the teleport bias', () => {
    const scores = textRank([[1, 2], [1, 2, 3], [3, 4], [9]])
    expect(scores[1]).toBeGreaterThan(scores[0])
    expect(scores[1]).toBeGreaterThan(scores[3])
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
    const biased = textRank([[1], [1], [2], [2]], [0, 0, 1, 0])
    expect(biased[2]).toBeGreaterThan(biased[0])
    expect(textRank([])).toEqual([])
  })
})

const UNITS = [
  'Scrooge sat in the counting-house. Bob Cratchit worked in the cold tank beside Scrooge. The fog came pouring in at every chink.',
  'Bob Cratchit went home to Camden Town. Tiny Tim rode upon the shoulder of Bob Cratchit. Mrs Cratchit made the gravy hissing hot.',
  'Marley was dead to begin with. Scrooge and Marley had been partners for many years. The bells rang out over the city.',
  'The ghost of Marley rattled a chain. Scrooge trembled before Marley and his chain of cash-boxes.',
].map((text, i) => ({ id: `tu${i}`, human_readable_id: i, text }))

function entity(title: string, degree: number, frequency: number) {
  return { id: `e-${title}`, title, degree, frequency }
}
const ENTITIES = [
  entity('SCROOGE', 4, 3),
  entity('BOB CRATCHIT', 3, 2),
  entity('TINY TIM', 1, 1),
  entity('CAMDEN TOWN', 1, 1),
  entity('MARLEY', 2, 2),
  entity('CHAIN', 1, 1),
]
const rel = (id: string, source: string, target: string, weight: number, units: string[]) => ({
  id,
  source,
  target,
  weight,
  combined_degree: 0,
  text_unit_ids: units,
})
const RELATIONSHIPS = [
  rel('r1', 'BOB CRATCHIT', 'SCROOGE', 0.2, ['tu0']),
  rel('r2', 'BOB CRATCHIT', 'TINY TIM', 0.3, ['tu1']),
  rel('r3', 'BOB CRATCHIT', 'CAMDEN TOWN', 0.1, ['tu1']),
  rel('r4', 'MARLEY', 'SCROOGE', 0.4, ['tu2', 'tu3']),
  rel('r5', 'CHAIN', 'MARLEY', 0.05, ['tu3']),
]
function community(
  id: number,
  level: number,
  entityTitles: string[],
  relIds: string[],
  units: string[],
  parent = -1,
): CommunityRow {
  return {
    id: `c${id}`,
    human_readable_id: id,
    community: id,
    level,
    parent,
    children: [],
    title: `Community ${id}`,
    entity_ids: entityTitles.map((t) => `e-${t}`),
    relationship_ids: relIds,
    text_unit_ids: units,
    period: '2026-01-15',
    size: entityTitles.length,
  }
}
const INPUT: ExtractiveReportInput = {
  communities: [
    community(0, 0, ['SCROOGE', 'BOB CRATCHIT', 'TINY TIM', 'CAMDEN TOWN'], ['r1', 'r2', 'r3'], ['tu0', 'tu1']),
    community(1, 0, ['MARLEY', 'CHAIN'], ['r5'], ['tu3']),
    community(2, 1, ['BOB CRATCHIT', 'TINY TIM'], ['r2'], ['tu1'], 0),
  ],
  entities: ENTITIES,
  relationships: RELATIONSHIPS,
  textUnits: UNITS,
}

describe('writeExtractiveReports', () => {
  const drafts = writeExtractiveReports(INPUT)
  const unitText = new Map(UNITS.map((u) => [u.id, normalizeWhitespace(u.text)]))

  it('writes one report per community, titled by its most central phrases', () => {
    expect(drafts.map((d) => [d.community, d.level])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
    ])
    expect(drafts[0].title).toBe('Scrooge, Bob Cratchit and Camden Town')
    expect(drafts[1].title).toBe('Marley and Chain')
  })

  it('builds the summary from sentences of the community’s own text units', () => {
    for (const [i, d] of drafts.entries()) {
      const own = INPUT.communities[i].text_unit_ids.map((id) => unitText.get(id)!)
      const sentences = splitSentences(d.summary)
      expect(sentences.length).toBeGreaterThan(0)
      for (const s of sentences)
        expect(
          own.some((t) => t.includes(s)),
          s,
        ).toBe(true)
    }
    expect(drafts[2].summary).toContain('Tiny Tim rode upon the shoulder of Bob Cratchit.')
  })

  it('writes 3–8 findings, strongest relationship first, each quoting a supporting sentence', () => {
    for (const d of drafts) {
      expect(d.findings.length).toBeGreaterThanOrEqual(3)
      expect(d.findings.length).toBeLessThanOrEqual(8)
    }
    expect(drafts[0].findings[0].summary).toBe('Bob Cratchit and Tiny Tim appear together')
    expect(drafts[0].findings[0].explanation).toContain('"Tiny Tim rode upon the shoulder of Bob Cratchit."')
    expect(drafts[0].findings[0].explanation).toContain('[Data: Sources (1)]')
    expect(drafts[1].findings[0].explanation).toMatch(/A supporting passage: "[^"]*Marley[^"]*chain[^"]*"/)
  })

  it('rates from size and centrality within 1–10 and explains the rating', () => {
    for (const d of drafts) {
      expect(d.rating).toBeGreaterThanOrEqual(1)
      expect(d.rating).toBeLessThanOrEqual(10)
      expect(d.rating_explanation).toMatch(/^Rated \d+\.\d of 10/)
    }
    expect(drafts[0].rating).toBe(10)
    expect(drafts[0].rating).toBeGreaterThan(drafts[2].rating)
  })

  it('is deterministic and renders like the LLM reports', () => {
    expect(writeExtractiveReports(INPUT)).toEqual(drafts)
    const rows = finalizeReports(drafts, INPUT.communities)
    expect(rows[0].full_content).toBe(renderFullContent(drafts.find((d) => d.community === rows[0].community)!))
    expect(rows[0].full_content.startsWith(`# ${rows[0].title}\n\n`)).toBe(true)
  })

  it('still writes a report for a community without text', () => {
    const [d] = writeExtractiveReports({ ...INPUT, communities: [community(5, 0, ['MARLEY', 'CHAIN'], ['r5'], [])] })
    expect(d.summary).toContain('Marley')
    expect(d.findings.length).toBeGreaterThanOrEqual(1)
  })

  it('picks the eight strongest of many relationships in the full order (weight, combined degree, names)', () => {
    // Ties on weight and degree are common on a noun graph: the names decide, as a full sort would.
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const titles = ENTITIES.map((e) => e.title)
    const many = Array.from({ length: 400 }, (_, i) => ({
      ...rel(`m${i}`, `${titles[i % 6]} ${i}`, titles[Math.floor(next() * 6)]!, Math.floor(next() * 4), ['tu0']),
      combined_degree: Math.floor(next() * 3),
    }))
    const expected = [...many]
      .sort(
        (a, b) =>
          b.weight - a.weight ||
          b.combined_degree - a.combined_degree ||
          (a.source + '\u0000' + a.target < b.source + '\u0000' + b.target ? -1 : 1),
      )
      .slice(0, 8)
      .map((r) => r.id)
    const ids = many.map((r) => r.id)
    const [d] = writeExtractiveReports({
      ...INPUT,
      relationships: many,
      communities: [community(9, 0, titles, ids, ['tu0'])],
    })
    const bySummary = new Map(
      many.map((r) => [`${displayName(r.source, ' ')} and ${displayName(r.target, ' ')} appear together`, r.id]),
    )
    const named = d!.findings.map((f) => bySummary.get(f.summary))
    expect(named).toEqual(expected)
  })
})
