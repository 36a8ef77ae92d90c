import { execFileSync } from 'node:child_process'
import { totalmem } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { buildEdges, buildNodes, buildNounGraph } from '../../../src/index/operations/build-noun-graph.js'
import { compareCodePoints } from '../../../src/text/names.js'
import { PROJECT_ROOT } from '../../support/shared.js'

const UNITS = [
  { id: 't1', phrases: ['SCROOGE', 'MARLEY', 'BOB CRATCHIT'] },
  { id: 't2', phrases: ['MARLEY', 'SCROOGE', 'MARLEY'] },
  { id: 't3', phrases: ['TINY TIM'] },
  { id: 't4', phrases: ['BOB CRATCHIT', 'TINY TIM', 'SCROOGE'] },
]

describe('buildNodes', () => {
  it('lists each phrase once per text unit, in first-seen order, with frequency = unit count', () => {
    expect(buildNodes(UNITS)).toEqual([
      { title: 'SCROOGE', frequency: 3, text_unit_ids: ['t1', 't2', 't4'], type: 'NOUN PHRASE', description: '' },
      { title: 'MARLEY', frequency: 2, text_unit_ids: ['t1', 't2'], type: 'NOUN PHRASE', description: '' },
      { title: 'BOB CRATCHIT', frequency: 2, text_unit_ids: ['t1', 't4'], type: 'NOUN PHRASE', description: '' },
      { title: 'TINY TIM', frequency: 2, text_unit_ids: ['t3', 't4'], type: 'NOUN PHRASE', description: '' },
    ])
  })
})

describe('buildEdges', () => {
  it('connects every sorted unique pair of a unit (source < target) and counts units as weight', () => {
    const edges = buildEdges(UNITS)
    expect(edges.map((e) => [e.source, e.target, e.weight, e.text_unit_ids])).toEqual([
      ['BOB CRATCHIT', 'MARLEY', 1, ['t1']],
      ['BOB CRATCHIT', 'SCROOGE', 2, ['t1', 't4']],
      ['BOB CRATCHIT', 'TINY TIM', 1, ['t4']],
      ['MARLEY', 'SCROOGE', 2, ['t1', 't2']],
      ['SCROOGE', 'TINY TIM', 1, ['t4']],
    ])
    expect(edges.every((e) => e.description === '')).toBe(true)
  })
})

/** The edges as the plain definition gives them: a map from "source target" to its units, sorted. */
function naiveEdges(units: readonly { id: string; phrases: string[] }[]): [string, string, number, string[]][] {
  const pairs = new Map<string, string[]>()
  for (const unit of units) {
    const phrases = [...new Set(unit.phrases)].sort(compareCodePoints)
    for (const [i, a] of phrases.entries())
      for (const b of phrases.slice(i + 1))
        pairs.set(`${a}\u0000${b}`, [...(pairs.get(`${a}\u0000${b}`) ?? []), unit.id])
  }
  return [...pairs.keys()]
    .sort((x, y) => {
      const [xa, xb] = x.split('\u0000') as [string, string]
      const [ya, yb] = y.split('\u0000') as [string, string]
      return xa === ya ? compareCodePoints(xb, yb) : compareCodePoints(xa, ya)
    })
    .map((key) => {
      const [a, b] = key.split('\u0000') as [string, string]
      return [a, b, pairs.get(key)!.length, pairs.get(key)!]
    })
}

describe('buildEdges on many pairs', () => {
  it("gives the plain definition's edges past its first buffers (thousands of pairs, tens of thousands of unit lists)", () => {
    let state = 5
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31)
    // Names sharing prefixes, accents and an astral character, so code-point order is what decides.
    const pool = Array.from({ length: 120 }, (_, i) => ['Ab', 'ab', 'Äb', '𝒜b', 'A', '\uFF21b'][i % 6]! + String(i))
    const units = Array.from({ length: 70 }, (_, u) => ({
      id: `unit-${u}`,
      phrases: Array.from({ length: 45 }, () => pool[Math.floor((next() / 2 ** 31) * pool.length)]!),
    }))
    const edges = buildEdges(units)
    expect(edges.length).toBeGreaterThan(2048)
    expect(edges.reduce((n, e) => n + e.weight, 0)).toBeGreaterThan(8192)
    expect(edges.map((e) => [e.source, e.target, e.weight, e.text_unit_ids])).toEqual(naiveEdges(units))
  })
})

describe('PMI normalisation', () => {
  it('weights p(x,y)·log2(p(x,y)/(p(x)p(y))) from edge counts and node frequencies', () => {
    const graph = buildNounGraph(UNITS, { normalize_edge_weights: true })
    // Σw = 7, Σfreq = 9; MARLEY–SCROOGE: p = 2/7, p(x) = 2/9, p(y) = 3/9.
    const p = 2 / 7
    const expected = p * Math.log2(p / ((2 / 9) * (3 / 9)))
    const edge = graph.relationships.find((r) => r.source === 'MARLEY' && r.target === 'SCROOGE')
    expect(edge?.weight).toBeCloseTo(expected, 12)
    expect(edge?.text_unit_ids).toEqual(['t1', 't2'])
    // BOB CRATCHIT–TINY TIM: p = 1/7, p(x) = p(y) = 2/9.
    const bobTim = graph.relationships.find((r) => r.source === 'BOB CRATCHIT' && r.target === 'TINY TIM')
    expect(bobTim?.weight).toBe((1 / 7) * Math.log2(1 / 7 / ((2 / 9) * (2 / 9))))
  })
  it('keeps raw counts when normalisation is off, and handles a graph with no edges', () => {
    expect(buildNounGraph(UNITS, { normalize_edge_weights: false }).relationships.map((r) => r.weight)).toEqual([
      1, 2, 1, 2, 1,
    ])
    const lonely = buildNounGraph([{ id: 'a', phrases: ['SCROOGE'] }], { normalize_edge_weights: true })
    expect(lonely.entities).toHaveLength(1)
    expect(lonely.relationships).toEqual([])
  })
})

// Slow (GRAPHRAG_SLOW_TESTS=1): 17.4 M pairs from one unit of 5,900 phrases, past the 2^24 entries one
// V8 Map can hold (a 20 MB text made the fast method fail there). Needs ~3.5 GB, so it runs in a child
// process with room for it, over dist/ (built by `npm test`), and only on a machine with 10 GB or more.
const BIG_ENOUGH = totalmem() >= 10 * 1024 ** 3
describe.skipIf(!process.env.GRAPHRAG_SLOW_TESTS || !BIG_ENOUGH)(
  'buildEdges past 2^24 pairs (slow, 10 GB+ machines)',
  () => {
    it('keeps every pair, in (source, target) order', () => {
      const script = `
      const { buildEdges } = await import(${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'dist/index/operations/build-noun-graph.js')).href)})
      const phrases = Array.from({ length: 5900 }, (_, i) => 'P' + String(i).padStart(4, '0'))
      const rows = buildEdges([{ id: 'u1', phrases }])
      let ordered = true
      for (let k = 1; k < rows.length; k++) {
        const a = rows[k - 1], b = rows[k]
        if (!(a.source < b.source || (a.source === b.source && a.target < b.target))) { ordered = false; break }
      }
      console.log(JSON.stringify({ count: rows.length, ordered, first: [rows[0].source, rows[0].target] }))`
      const out = execFileSync(process.execPath, ['--max-old-space-size=8192', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      })
      expect(JSON.parse(out)).toEqual({ count: (5900 * 5899) / 2, ordered: true, first: ['P0000', 'P0001'] })
    }, 120_000)
  },
)
