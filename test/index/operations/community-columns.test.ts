// create_communities on typed columns (cluster-edges.ts, internal-relationships.ts, the continuity's
// pair walk) against the row forms they replaced, written out plainly here: random relationship tables
// with repeated and reversed pairs, weights ≤ 0, names that normalise alike, names outside the basic
// plane (code-point order differs from UTF-16 order there) and components of equal size.
import { describe, expect, it } from 'vitest'
import { stableLargestConnectedComponent } from '../../../src/graph/components/index.js'
import { prepareEdges, type Cluster, type ClusterEdge } from '../../../src/index/operations/cluster-graph.js'
import { previousCommunities } from '../../../src/index/operations/community-continuity.js'
import { buildCommunityRows } from '../../../src/index/operations/create-communities.js'
import { compareCodePoints } from '../../../src/text/names.js'

const NAMES = ['A', 'a', ' A', 'B&amp;C', 'B&C', 'D', 'E', 'F', 'G', 'H', '\u{1D49C}X', '\uFF5AY', 'I', 'J', 'K', 'L']
const UNITS = ['u3', 'u1', 'u10', 'u2', '\u{1D49C}u', '\uFF5Au']

function lcg(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

interface Row extends ClusterEdge {
  id: string
  source: string
  target: string
  weight: number
  text_unit_ids: string[]
}

function randomRows(seed: number, count: number, names = NAMES): Row[] {
  const random = lcg(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const weights = [1, 2, 0.5, 0, -1, 3]
  return Array.from({ length: count }, (_, i) => ({
    // A few repeated ids, so the lists' repeats are dropped too.
    id: `r${Math.floor(random() * count * 0.9)}-${i % 3}`,
    source: pick(names),
    target: pick(names),
    weight: pick(weights),
    text_unit_ids: Array.from({ length: Math.floor(random() * 3) }, () => pick(UNITS)),
  }))
}

/** The row form prepareEdges had: a string key per pair, last row wins, then the stable LCC and a sort. */
function referenceEdges(rows: readonly ClusterEdge[], useLcc: boolean) {
  const last = new Map<string, { source: string; target: string; weight: number }>()
  for (const r of rows) {
    const [source, target] = compareCodePoints(r.source, r.target) <= 0 ? [r.source, r.target] : [r.target, r.source]
    last.delete(`${source}\0${target}`)
    last.set(`${source}\0${target}`, { source, target, weight: r.weight ?? 1 })
  }
  let kept = [...last.values()].filter((r) => !(r.weight <= 0))
  const nonPositiveEdges = last.size - kept.length
  if (useLcc) kept = stableLargestConnectedComponent(kept)
  const edges = kept
    .map((r) => [r.source, r.target, r.weight] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || a[2] - b[2])
  return { edges, nonPositiveEdges }
}

describe('clustering edges on columns', () => {
  it('gives the row form’s edge list, with and without the LCC, over many random tables', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rows = randomRows(seed, 5 + (seed % 40))
      for (const useLcc of [true, false])
        expect(prepareEdges(rows, useLcc), `seed ${seed}`).toEqual(referenceEdges(rows, useLcc))
    }
  })

  it('keeps the first-numbered of two equally large components', () => {
    const rows = [
      { source: 'Z', target: 'Y', weight: 1 },
      { source: 'B', target: 'A', weight: 1 },
    ]
    expect(prepareEdges(rows, true).edges).toEqual([['Y', 'Z', 1]])
    expect(prepareEdges(rows.slice().reverse(), true).edges).toEqual([['A', 'B', 1]])
  })
})

/** The row form of the community lists: every relationship inside a community at its level, sorted and distinct. */
function referenceLists(clusters: readonly Cluster[], rows: readonly Row[]) {
  const out = new Map<number, { relationship_ids: string[]; text_unit_ids: string[] }>()
  for (const c of clusters) {
    const inside = new Set(c.nodes)
    const members = rows.filter((r) => inside.has(r.source) && inside.has(r.target))
    if (members.length === 0) continue
    const sorted = (values: string[]) => [...new Set(values)].sort(compareCodePoints)
    out.set(c.cluster, {
      relationship_ids: sorted(members.map((r) => r.id)),
      text_unit_ids: sorted(members.flatMap((r) => r.text_unit_ids)),
    })
  }
  return out
}

/** Two levels: level 0 splits the names into groups of `size`, level 1 into halves (a node in at most one cluster a level). */
function twoLevels(size: number): Cluster[] {
  const out: Cluster[] = []
  for (let at = 0; at < NAMES.length; at += size)
    out.push({ level: 0, cluster: out.length, parent: 100 + Math.floor(at / 8), nodes: NAMES.slice(at, at + size) })
  out.push({ level: 1, cluster: 100, parent: -1, nodes: NAMES.slice(0, 8) })
  out.push({ level: 1, cluster: 101, parent: -1, nodes: NAMES.slice(8) })
  return out
}

describe('community lists on columns', () => {
  it('lists each community’s relationships and text units as the row form did', () => {
    const entities = NAMES.map((title, i) => ({ id: `e${i}`, title }))
    for (let seed = 1; seed <= 30; seed++) {
      const rows = randomRows(seed, 20 + seed * 3)
      const clusters = twoLevels(2 + (seed % 3))
      const built = buildCommunityRows(clusters, entities, rows, '2026-01-01', undefined)
      const expected = referenceLists(clusters, rows)
      expect(built.map((r) => r.community).sort(), `seed ${seed}`).toEqual([...expected.keys()].sort())
      for (const row of built) {
        expect({ relationship_ids: row.relationship_ids, text_unit_ids: row.text_unit_ids }).toEqual(
          expected.get(row.community),
        )
      }
    }
  })
})

/** The row form of the update's "touched" titles: a key per pair for each generation, compared both ways. */
function referenceTouched(before: readonly Row[], after: readonly Row[]): Set<string> {
  const weights = (rows: readonly Row[]) => {
    const out = new Map<string, number>()
    for (const [key, { weight }] of referenceEdges(rows, false).edges.map(
      ([s, t, w]) => [`${s}\0${t}`, { weight: w }] as const,
    ))
      out.set(key, weight)
    return out
  }
  const [a, b] = [weights(before), weights(after)]
  const touched = new Set<string>()
  for (const [pair, w] of [...a, ...b])
    if (a.get(pair) !== w || b.get(pair) !== w) for (const t of pair.split('\0')) touched.add(t)
  return touched
}

describe('the update’s untouched communities on columns', () => {
  it('keeps together exactly the communities no added, removed or re-weighted pair reaches', () => {
    const entities = NAMES.map((title, i) => ({ id: `e${i}`, title }))
    // One level-0 community per entity: the communities kept together are the untouched titles themselves.
    const communities = entities.map((e, i) => ({ community: i, level: 0, entity_ids: [e.id] }))
    for (let seed = 1; seed <= 40; seed++) {
      const before = randomRows(seed, 30)
      const after = [...before.slice(0, 25), ...randomRows(seed + 1000, 3)]
      const touched = referenceTouched(before, after)
      const kept = previousCommunities(communities, entities, { previous: before, current: after }).keepTogether
      expect(kept.flat(), `seed ${seed}`).toEqual(NAMES.filter((n) => !touched.has(n)))
      expect(touched.size, `seed ${seed}: the change reaches some pair`).toBeGreaterThan(0)
    }
  })
})
