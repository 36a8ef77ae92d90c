/**
 * prune_graph on codes (prune-codes.ts) against the row form (prune-graph.ts), the reference: the same
 * entities and the same relationships kept, on generated graphs under every rule, with repeated and
 * reversed pairs, self-loops, endpoints that are not entities, ties for the largest component, and
 * titles whose code-point order differs from JavaScript's string order.
 */
import { describe, expect, it } from 'vitest'
import { seededRng } from '../../../src/query/rng.js'
import {
  degreeMapOfCodes,
  largestComponentCodes,
  type PairCodes,
  prunePairCodes,
} from '../../../src/index/operations/prune-codes.js'
import { degreeMap, type PruneGraphOptions, pruneGraph } from '../../../src/index/operations/prune-graph.js'

const OFF: PruneGraphOptions = {
  min_node_freq: 0,
  max_node_freq_std: null,
  min_node_degree: 0,
  max_node_degree_std: null,
  min_edge_weight_pct: 0,
  remove_ego_nodes: false,
  lcc_only: false,
}

interface Rel {
  source: string
  target: string
  weight: number
}

// U+FF21 sorts after U+1F600 in JavaScript's order (UTF-16 units) and before it by code point.
const NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', '\uFF21', '\u{1F600}', 'É', 'Z1', 'Z2', 'Z3']

function graph(seed: number, ordered: boolean) {
  const next = seededRng(seed)
  const pick = () => NAMES[Math.floor(next() * NAMES.length)]!
  const entities = NAMES.filter(() => next() < 0.85).map((title) => ({ title, frequency: 1 + Math.floor(next() * 6) }))
  let rels: Rel[] = Array.from({ length: 30 }, () => ({
    source: pick(),
    target: pick(),
    weight: Math.floor(next() * 5),
  }))
  if (ordered) {
    const unique = new Map(
      rels.filter((r) => r.source < r.target).map((r) => [`${r.source}\u0000${r.target}`, r] as const),
    )
    rels = [...unique.values()].sort((a, b) =>
      a.source < b.source ? -1 : a.source > b.source ? 1 : a.target < b.target ? -1 : 1,
    )
  }
  return { entities, rels }
}

/** The relationships as the column read gives them: codes in the order the strings are first met. */
function codesOf(rels: readonly Rel[]): PairCodes {
  const titles: string[] = []
  const codeOf = new Map<string, number>()
  const code = (title: string) => {
    if (!codeOf.has(title)) codeOf.set(title, titles.push(title) - 1)
    return codeOf.get(title)!
  }
  const source = new Int32Array(rels.length)
  const target = new Int32Array(rels.length)
  rels.forEach((r, i) => {
    source[i] = code(r.source)
    target[i] = code(r.target)
  })
  return { source, target, weight: Float64Array.from(rels, (r) => r.weight), titles }
}

const RULES: Partial<PruneGraphOptions>[] = [
  {},
  { min_node_freq: 3 },
  { max_node_freq_std: 0.5 },
  { min_node_degree: 3 },
  { max_node_degree_std: 0.3 },
  { min_edge_weight_pct: 40 },
  { remove_ego_nodes: true },
  { lcc_only: true },
  { min_node_freq: 2, min_node_degree: 2, min_edge_weight_pct: 50, remove_ego_nodes: true, lcc_only: true },
]

describe('prune_graph on codes', () => {
  it('keeps the entities and relationships the row form keeps, under every rule', () => {
    let kept = 0
    for (let seed = 1; seed <= 40; seed++)
      for (const ordered of [false, true])
        for (const rule of RULES) {
          const { entities, rels } = graph(seed, ordered)
          const options = { ...OFF, ...rule }
          const expected = pruneGraph(entities, rels, options)
          const actual = prunePairCodes(entities, codesOf(rels), options)
          const context = `seed ${seed}, ordered ${ordered}, ${JSON.stringify(rule)}`
          expect(actual.entities, context).toEqual(expected.entities)
          expect(
            rels.filter((_, i) => actual.wanted[i] === 1),
            context,
          ).toEqual(expected.relationships)
          expect(actual.kept, context).toBe(expected.relationships.length)
          kept += actual.kept
        }
    expect(kept).toBeGreaterThan(1000)
  })

  it('orders degrees as the row form: titles by code point, then unlinked entities in table order', () => {
    const rels = [
      { source: 'B', target: 'A', weight: 1 },
      { source: 'A', target: 'B', weight: 1 },
      { source: '\u{1F600}', target: '\uFF21', weight: 1 },
      { source: 'C', target: 'C', weight: 1 },
    ]
    const entities = [
      { title: 'Z', frequency: 1 },
      { title: 'B', frequency: 1 },
    ]
    expect([...degreeMapOfCodes(entities, codesOf(rels))]).toEqual([...degreeMap(entities, rels)])
    expect([...degreeMapOfCodes(entities, codesOf(rels))].map(([title]) => title)).toEqual([
      'A',
      'B',
      'C',
      '\uFF21',
      '\u{1F600}',
      'Z',
    ])
  })

  it('counts a pair once when it comes back reversed in an otherwise ascending list', () => {
    const rels = [
      { source: 'A', target: 'B', weight: 1 },
      { source: 'B', target: 'A', weight: 1 },
      { source: 'C', target: 'D', weight: 1 },
    ]
    expect([...degreeMapOfCodes([], codesOf(rels))]).toEqual([
      ['A', 1],
      ['B', 1],
      ['C', 1],
      ['D', 1],
    ])
  })

  it('of two components of one size, keeps the one whose first node comes first', () => {
    const rels = [
      { source: 'X', target: 'Y', weight: 1 },
      { source: 'A', target: 'B', weight: 1 },
      { source: 'P', target: 'Q', weight: 1 },
    ]
    const pairs = codesOf(rels)
    const lcc = largestComponentCodes(pairs, new Uint8Array([0, 1, 1]))
    expect(pairs.titles.filter((_, code) => lcc[code] === 1)).toEqual(['A', 'B'])
  })
})
