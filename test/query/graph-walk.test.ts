import { describe, expect, it } from 'vitest'
import { walkChunkGraph, type WalkEdge, type WalkOptions, type WalkResult } from '../../src/query/search/graph-walk.js'

/**
 * A hand-made chunk graph around the seed S:
 *   S -0.8 depends_on-> A -0.6 elaborates-> B,  S -0.4 contradicts-> C -1.0 related_to-> B,
 *   B -0.9 caused_by-> S (a cycle back to the seed),  D -0.5 references-> S (only incoming to S).
 */
const e = (source: string, target: string, weight: number, relation: string): WalkEdge => ({
  source,
  target,
  relation,
  weight,
  description: `${source} ${relation} ${target}`,
})
const EDGES = [
  e('S', 'A', 0.8, 'depends_on'),
  e('A', 'B', 0.6, 'elaborates'),
  e('S', 'C', 0.4, 'contradicts'),
  e('C', 'B', 1.0, 'related_to'),
  e('B', 'S', 0.9, 'caused_by'),
  e('D', 'S', 0.5, 'references'),
]
const DEFAULTS: WalkOptions = {
  maxHops: 2,
  bidirectional: false,
  relationFilter: null,
  minTraversalScore: 0,
  vectorWeight: 0.7,
  graphWeight: 0.3,
  hopDecay: [1.0, 0.7, 0.5],
}
const SEEDS = [{ id: 'S', similarity: 0.9 }]

/** [id, score, hop, reached from, relation, direction] per result, scores rounded to 1e-9. */
function summary(results: readonly WalkResult[]): Array<[string, number, number, string, string, string]> {
  return results.map((r) => [
    r.id,
    Math.round(r.score * 1e9) / 1e9,
    r.hop,
    r.via?.from ?? '',
    r.via?.relation ?? '',
    r.via?.direction ?? '',
  ])
}

describe('graph search walk', () => {
  it('scores the seed 0.7 × sim + 0.3 and reached units 0.3 × weight × hop decay, keeping the best edge of a hop', () => {
    // S: 0.7·0.9 + 0.3 = 0.93. Hop 1 (×0.7): A 0.3·0.8·0.7 = 0.168, C 0.3·0.4·0.7 = 0.084.
    // Hop 2 (×0.5): B via A 0.3·0.6·0.5 = 0.09, via C 0.3·1.0·0.5 = 0.15: C's edge wins. D is only reachable backwards.
    expect(summary(walkChunkGraph(SEEDS, EDGES, DEFAULTS))).toEqual([
      ['S', 0.93, 0, '', '', ''],
      ['A', 0.168, 1, 'S', 'depends_on', 'outgoing'],
      ['B', 0.15, 2, 'C', 'related_to', 'outgoing'],
      ['C', 0.084, 1, 'S', 'contradicts', 'outgoing'],
    ])
  })

  it('carries the edge description as graph context', () => {
    const b = walkChunkGraph(SEEDS, EDGES, DEFAULTS).find((r) => r.id === 'B')
    expect(b?.via).toEqual({
      from: 'C',
      relation: 'related_to',
      description: 'C related_to B',
      weight: 1,
      direction: 'outgoing',
    })
  })

  it('follows incoming edges too when bidirectional', () => {
    // Hop 1 from S: A 0.168, C 0.084 (outgoing); B 0.3·0.9·0.7 = 0.189 and D 0.3·0.5·0.7 = 0.105 (incoming).
    expect(summary(walkChunkGraph(SEEDS, EDGES, { ...DEFAULTS, bidirectional: true }))).toEqual([
      ['S', 0.93, 0, '', '', ''],
      ['B', 0.189, 1, 'S', 'caused_by', 'incoming'],
      ['A', 0.168, 1, 'S', 'depends_on', 'outgoing'],
      ['D', 0.105, 1, 'S', 'references', 'incoming'],
      ['C', 0.084, 1, 'S', 'contradicts', 'outgoing'],
    ])
  })

  it('follows only the relations of the filter', () => {
    // B is now reached through A only: 0.3·0.6·0.5 = 0.09.
    expect(
      summary(walkChunkGraph(SEEDS, EDGES, { ...DEFAULTS, relationFilter: ['depends_on', 'elaborates'] })),
    ).toEqual([
      ['S', 0.93, 0, '', '', ''],
      ['A', 0.168, 1, 'S', 'depends_on', 'outgoing'],
      ['B', 0.09, 2, 'A', 'elaborates', 'outgoing'],
    ])
  })

  it('skips edges whose weight × hop decay is below min_traversal_score', () => {
    // S→A 0.8·0.7 = 0.56 and A→B 0.6·0.5 = 0.30 pass 0.29; S→C 0.4·0.7 = 0.28 does not, so neither does C→B.
    expect(summary(walkChunkGraph(SEEDS, EDGES, { ...DEFAULTS, minTraversalScore: 0.29 }))).toEqual([
      ['S', 0.93, 0, '', '', ''],
      ['A', 0.168, 1, 'S', 'depends_on', 'outgoing'],
      ['B', 0.09, 2, 'A', 'elaborates', 'outgoing'],
    ])
  })

  it('stops at max_hops and uses the last hop decay beyond the list', () => {
    expect(summary(walkChunkGraph(SEEDS, EDGES, { ...DEFAULTS, maxHops: 0 }))).toEqual([['S', 0.93, 0, '', '', '']])
    expect(walkChunkGraph(SEEDS, EDGES, { ...DEFAULTS, maxHops: 1 }).map((r) => r.id)).toEqual(['S', 'A', 'C'])
    const chain = [e('S', 'A', 1, 'sequence'), e('A', 'B', 1, 'sequence'), e('B', 'E', 1, 'sequence')]
    // Hop 3 uses hop_decay[2] = 0.5 again: 0.3·1·0.5 = 0.15, as hop 2.
    expect(summary(walkChunkGraph(SEEDS, chain, { ...DEFAULTS, maxHops: 3 })).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['S', 0.93, 0],
      ['A', 0.21, 1],
      ['B', 0.15, 2],
      ['E', 0.15, 3],
    ])
  })

  it('never revisits a unit: cycles end, seeds keep their seed score, a unit keeps the hop it was first reached at', () => {
    const cycle = [
      e('S', 'A', 1, 'sequence'),
      e('A', 'S', 1, 'sequence'),
      e('A', 'B', 0.2, 'elaborates'),
      e('B', 'A', 1, 'elaborates'),
      e('B', 'S', 1, 'caused_by'),
      e('A', 'A', 1, 'similar_to'),
    ]
    const results = walkChunkGraph(SEEDS, cycle, { ...DEFAULTS, maxHops: 10, bidirectional: true })
    expect(summary(results)).toEqual([
      ['S', 0.93, 0, '', '', ''],
      // A via S→A (0.21) rather than A→S backwards (also 0.21; the first edge listed wins a tie).
      ['A', 0.21, 1, 'S', 'sequence', 'outgoing'],
      // B: B→S backwards at hop 1 (0.3·1·0.7) beats A→B at hop 2.
      ['B', 0.21, 1, 'S', 'caused_by', 'incoming'],
    ])
  })

  it('starts from every seed; a unit reachable from two seeds keeps its best score', () => {
    const seeds = [
      { id: 'S', similarity: 0.9 },
      { id: 'D', similarity: 0.5 },
    ]
    const edges = [e('S', 'X', 0.2, 'references'), e('D', 'X', 0.9, 'depends_on'), e('D', 'S', 0.5, 'references')]
    // D: 0.7·0.5 + 0.3 = 0.65; X via D 0.3·0.9·0.7 = 0.189 (via S only 0.042); S stays a seed.
    expect(summary(walkChunkGraph(seeds, edges, DEFAULTS))).toEqual([
      ['S', 0.93, 0, '', '', ''],
      ['D', 0.65, 0, '', '', ''],
      ['X', 0.189, 1, 'D', 'depends_on', 'outgoing'],
    ])
  })

  it('returns nothing without seeds and only the seeds without edges', () => {
    expect(walkChunkGraph([], EDGES, DEFAULTS)).toEqual([])
    expect(summary(walkChunkGraph(SEEDS, [], DEFAULTS))).toEqual([['S', 0.93, 0, '', '', '']])
  })
})
