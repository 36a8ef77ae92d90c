import { describe, expect, it } from 'vitest'
import { dedupeEdges, pruneEdges, toRows } from '../../../src/index/operations/chunk-graph/assemble.js'
import { crossDocumentBatches, slidingWindows } from '../../../src/index/operations/chunk-graph/batches.js'
import { buildChunkGraph } from '../../../src/index/operations/chunk-graph/build.js'
import { sequenceEdges } from '../../../src/index/operations/chunk-graph/sequence.js'
import { sharedEntityEdges } from '../../../src/index/operations/chunk-graph/shared-entities.js'
import type { ChunkUnit, DraftEdge } from '../../../src/index/operations/chunk-graph/types.js'
import { validateSettings } from '../../../src/config/validate.js'
import { validateEdges } from '../../../src/index/operations/chunk-graph/validate-edges.js'
import { chunkEdgeId } from '../../../src/index/operations/graph-ids.js'

/** Two documents: A has units a1-a3, B has b1-b2; entity ids e1-e5. */
const unit = (id: string, hr: number, doc: string, entities: string[]): ChunkUnit => ({
  id,
  human_readable_id: hr,
  document_id: doc,
  text: `text of ${id}`,
  entity_ids: entities,
})
const a1 = unit('a1', 0, 'A', ['e1', 'e2', 'e3'])
const a2 = unit('a2', 1, 'A', ['e1', 'e2'])
const b1 = unit('b1', 2, 'B', ['e1', 'e2', 'e3', 'e4'])
const a3 = unit('a3', 3, 'A', ['e4'])
const b2 = unit('b2', 4, 'B', ['e4', 'e5'])
// Table order interleaves the documents: sequence edges follow each document's own order.
const UNITS = [a1, a2, b1, a3, b2]
const TITLES = new Map([
  ['e1', 'SCROOGE'],
  ['e2', 'MARLEY'],
  ['e3', 'BOB'],
  ['e4', 'TIM'],
  ['e5', 'FRED'],
])

const pairs = (edges: readonly DraftEdge[]) => edges.map((e) => `${e.source}>${e.target}`)

describe('sequence edges', () => {
  it('link consecutive units of the same document, in table order, weight 1', () => {
    const edges = sequenceEdges(UNITS)
    expect(pairs(edges)).toEqual(['a1>a2', 'a2>a3', 'b1>b2'])
    expect(edges.every((e) => e.relation === 'sequence' && e.weight === 1 && e.origin === 'sequence')).toBe(true)
  })

  it('give a single-unit document no edge', () => {
    expect(sequenceEdges([a1, b1])).toEqual([])
  })
})

describe('shared-entity edges', () => {
  it('link pairs sharing at least the minimum, both directions, weight = count / largest count, count and titles in the description', () => {
    const edges = sharedEntityEdges(UNITS, TITLES, 2)
    // Shared: a1-a2 {e1,e2} = 2, a1-b1 {e1,e2,e3} = 3, a2-b1 {e1,e2} = 2; a3-b1, a3-b2, b1-b2 share only e4.
    expect(pairs(edges)).toEqual(['a1>a2', 'a1>b1', 'a2>a1', 'a2>b1', 'b1>a1', 'b1>a2'])
    expect(edges.map((e) => e.weight)).toEqual([2 / 3, 1, 2 / 3, 2 / 3, 1, 2 / 3])
    expect(edges[1]!.description).toBe('3 shared entities: SCROOGE, MARLEY, BOB')
    expect(edges.every((e) => e.relation === 'related_to' && e.origin === 'shared_entities')).toBe(true)
  })

  it('with a minimum of 1 keeps single shared entities and normalises by the same largest count', () => {
    const edges = sharedEntityEdges(UNITS, TITLES, 1)
    expect(edges).toHaveLength(12)
    expect(edges.find((e) => e.source === 'a3' && e.target === 'b2')).toMatchObject({
      weight: 1 / 3,
      description: '1 shared entities: TIM',
    })
  })

  it('counts an entity listed twice in one unit once, names unknown ids by id and cuts long lists', () => {
    const x = unit('x', 0, 'X', ['e1', 'e1', 'q1', 'q2', 'q3', 'q4', 'q5'])
    const y = unit('y', 1, 'Y', ['e1', 'q1', 'q2', 'q3', 'q4', 'q5'])
    const [edge] = sharedEntityEdges([x, y], TITLES, 2)
    expect(edge).toMatchObject({ weight: 1, description: '6 shared entities: SCROOGE, q1, q2, q3, q4, …' })
  })

  it('keeps only the heaviest edges of each unit when capped, normalising by the largest count kept', () => {
    // a1: b1 (3) before a2 (2); a2: a1 and b1 tie at 2, the lower position stays; b1: a1 (3).
    expect(pairs(sharedEntityEdges(UNITS, TITLES, 2, 1))).toEqual(['a1>b1', 'a2>a1', 'b1>a1'])
  })

  it('pairs a unit with the nearest mentions of an entity in most units, not every one (linear in the corpus)', () => {
    // 1,000 units all mention HUB; unit i also mentions its own entity shared with unit i + 1.
    const many = Array.from({ length: 1000 }, (_, i) => unit(`u${i}`, i, 'D', ['hub', `p${i}`, `p${i - 1}`]))
    const edges = sharedEntityEdges(many, TITLES, 1, 10)
    const ofLast = edges.filter((e) => e.source === 'u999').map((e) => Number(e.target.slice(1)))
    // The heaviest (HUB + the pair entity) first, then the nearest mentions of HUB: never the start of the corpus.
    expect(ofLast).toHaveLength(10)
    expect(ofLast.every((t) => t >= 999 - 16)).toBe(true)
    expect(edges.find((e) => e.source === 'u500' && e.target === 'u501')).toMatchObject({ weight: 1 })
    expect(edges.length).toBeLessThanOrEqual(1000 * 10)
  })

  it('are capped per unit by default, so the edges grow with the corpus, not its square', () => {
    const result = validateSettings({}, { root: '/project' })
    expect(result.ok && result.settings.chunk_graph.max_edges_per_chunk).toBe(10)
  })

  it('with a few units per entity still finds every pair (no hub, no approximation)', () => {
    const few = Array.from({ length: 64 }, (_, i) => unit(`u${i}`, i, 'D', ['common']))
    expect(sharedEntityEdges(few, TITLES, 1)).toHaveLength(64 * 63)
  })

  it('gives no edges when no unit has entities', () => {
    expect(
      sharedEntityEdges([unit('x', 0, 'X', []), { ...unit('y', 1, 'X', []), entity_ids: null }], TITLES, 1),
    ).toEqual([])
  })
})

describe('sliding batches', () => {
  it.each([
    [5, 5, 0, [[0, 5]]],
    [
      12,
      5,
      0,
      [
        [0, 5],
        [5, 10],
        [10, 12],
      ],
    ],
    // A last window of one unit is widened backwards to two.
    [
      11,
      5,
      0,
      [
        [0, 5],
        [5, 10],
        [9, 11],
      ],
    ],
    [
      9,
      5,
      2,
      [
        [0, 5],
        [3, 8],
        [6, 9],
      ],
    ],
    [2, 5, 0, [[0, 2]]],
    [1, 5, 0, []],
    [0, 5, 0, []],
  ])('%i units, size %i, overlap %i', (count, size, overlap, expected) => {
    expect(slidingWindows(count, size, overlap)).toEqual(expected)
  })
})

describe('cross-document batches', () => {
  // cos(a1, b1) = 0.995, cos(a1, b2) = 0.6, cos(a2, b2) = 0.8, cos(a2, b1) = 0.0995; a3 points away from everything.
  const vectors = new Map([
    ['a1', [1, 0]],
    ['a2', [0, 1]],
    ['b1', [1, 0.1]],
    ['b2', [0.6, 0.8]],
    ['a3', [-1, 0]],
  ])

  it('send each unit with its most similar units of other documents above the threshold, each pair once', () => {
    const batches = crossDocumentBatches(UNITS, vectors, 0.5, 3)
    expect(batches.map((b) => b.map((u) => u.id))).toEqual([
      ['a1', 'b1', 'b2'],
      ['a2', 'b2'],
    ])
  })

  it('keep at most top_k neighbours per unit', () => {
    expect(crossDocumentBatches(UNITS, vectors, 0.5, 1).map((b) => b.map((u) => u.id))).toEqual([
      ['a1', 'b1'],
      ['a2', 'b2'],
    ])
  })

  it('skip units without a vector and pairs below the threshold', () => {
    expect(
      crossDocumentBatches(
        UNITS,
        new Map([
          ['a1', [1, 0]],
          ['b2', [0.6, 0.8]],
        ]),
        0.7,
        3,
      ),
    ).toEqual([])
  })
})

describe('validation of model edges', () => {
  const batch = [a1, a2]
  const valid = { source: 1, target: 0, relation: 'depends_on', weight: 0.8, description: 'a2 needs a1' }

  it('keeps a valid edge, mapping labels (number, string, "unit N") to unit ids', () => {
    const { edges, dropped } = validateEdges(
      [valid, { ...valid, source: '1', target: 'unit 0', relation: 'Depends On', weight: 1 }],
      batch,
      'llm',
    )
    expect(dropped).toEqual([])
    expect(edges).toEqual([
      { source: 'a2', target: 'a1', relation: 'depends_on', weight: 0.8, description: 'a2 needs a1', origin: 'llm' },
      { source: 'a2', target: 'a1', relation: 'depends_on', weight: 1, description: 'a2 needs a1', origin: 'llm' },
    ])
  })

  it.each([
    ['not an object', 'edge', 'not_an_object'],
    ['null', null, 'not_an_object'],
    ['a list', [1, 0], 'not_an_object'],
    ['a target outside the batch', { ...valid, target: 2 }, 'unknown_id'],
    ['a source outside the batch', { ...valid, source: 7 }, 'unknown_id'],
    ['no source', { ...valid, source: undefined }, 'unknown_id'],
    ['a self-edge', { ...valid, target: 1 }, 'self_edge'],
    ['an unknown relation', { ...valid, relation: 'causes' }, 'unknown_relation'],
    ['related_to (reserved for shared entities)', { ...valid, relation: 'related_to' }, 'unknown_relation'],
    ['no relation', { ...valid, relation: 3 }, 'unknown_relation'],
    ['weight 0', { ...valid, weight: 0 }, 'bad_weight'],
    ['a negative weight', { ...valid, weight: -0.2 }, 'bad_weight'],
    ['a weight above 1', { ...valid, weight: 1.5 }, 'bad_weight'],
    ['a non-numeric weight', { ...valid, weight: 'high' }, 'bad_weight'],
    ['no weight', { ...valid, weight: undefined }, 'bad_weight'],
  ])('drops %s, one by one, keeping the valid edges of the batch', (_name, bad, reason) => {
    const { edges, dropped } = validateEdges([valid, bad, valid], batch, 'llm')
    expect(dropped).toEqual([reason])
    expect(edges).toHaveLength(2)
  })

  it('accepts a numeric-string weight and a missing description', () => {
    const { edges } = validateEdges([{ source: 0, target: 1, relation: 'elaborates', weight: '0.5' }], batch, 'llm')
    expect(edges).toEqual([
      { source: 'a1', target: 'a2', relation: 'elaborates', weight: 0.5, description: '', origin: 'llm' },
    ])
  })

  it('drops edges within one document from cross-document batches', () => {
    const { edges, dropped } = validateEdges(
      [valid, { ...valid, source: 2, target: 0 }],
      [a1, a2, b1],
      'cross_document',
    )
    expect(dropped).toEqual(['same_document'])
    expect(edges).toEqual([
      {
        source: 'b1',
        target: 'a1',
        relation: 'depends_on',
        weight: 0.8,
        description: 'a2 needs a1',
        origin: 'cross_document',
      },
    ])
  })
})

const edge = (
  source: string,
  target: string,
  weight: number,
  relation = 'elaborates',
  description = '',
): DraftEdge => ({ source, target, relation, weight, description, origin: 'llm' })

describe('dedupe and pruning', () => {
  it('keeps the highest weight of duplicates from overlapping batches (the first on a tie); other relations stay', () => {
    const edges = [
      edge('a1', 'a2', 0.4, 'elaborates', 'first'),
      edge('a1', 'a2', 0.9, 'elaborates', 'second'),
      edge('a1', 'a2', 0.6, 'elaborates', 'third'),
      edge('a1', 'a2', 0.3, 'references'),
    ]
    expect(dedupeEdges(edges)).toEqual([
      edge('a1', 'a2', 0.9, 'elaborates', 'second'),
      edge('a1', 'a2', 0.3, 'references'),
    ])
    expect(dedupeEdges([edge('a1', 'a2', 0.5, 'elaborates', 'x'), edge('a1', 'a2', 0.5, 'elaborates', 'y')])).toEqual([
      edge('a1', 'a2', 0.5, 'elaborates', 'x'),
    ])
  })

  it('drops edges below min_edge_weight and keeps the heaviest max_edges_per_chunk outgoing edges per unit', () => {
    const edges = [
      edge('a1', 'a2', 0.2),
      edge('a1', 'b1', 0.9),
      edge('a1', 'a3', 0.5),
      edge('a1', 'b2', 0.7),
      edge('a2', 'a1', 0.3),
    ]
    expect(pruneEdges(edges, { minEdgeWeight: 0.3, maxEdgesPerChunk: 0 })).toEqual([
      edge('a1', 'b1', 0.9),
      edge('a1', 'a3', 0.5),
      edge('a1', 'b2', 0.7),
      edge('a2', 'a1', 0.3),
    ])
    expect(pruneEdges(edges, { minEdgeWeight: 0, maxEdgesPerChunk: 2 })).toEqual([
      edge('a1', 'b1', 0.9),
      edge('a1', 'b2', 0.7),
      edge('a2', 'a1', 0.3),
    ])
    expect(pruneEdges(edges, { minEdgeWeight: 0.6, maxEdgesPerChunk: 1 })).toEqual([edge('a1', 'b1', 0.9)])
  })

  it('writes rows in unit order with ids from source, target and relation', () => {
    const order = new Map(UNITS.map((u, i) => [u.id, i]))
    const rows = toRows(
      [
        edge('b1', 'a1', 0.5),
        edge('a1', 'b2', 0.7, 'references'),
        edge('a1', 'b2', 0.7, 'elaborates'),
        edge('a1', 'a2', 1),
      ],
      order,
    )
    expect(rows.map((r) => `${r.source_id}>${r.target_id}:${r.relation}`)).toEqual([
      'a1>a2:elaborates',
      'a1>b2:elaborates',
      'a1>b2:references',
      'b1>a1:elaborates',
    ])
    expect(rows[0]).toEqual({
      id: chunkEdgeId('a1', 'a2', 'elaborates'),
      source_id: 'a1',
      target_id: 'a2',
      relation: 'elaborates',
      weight: 1,
      description: '',
      origin: 'llm',
    })
    expect(new Set(rows.map((r) => r.id)).size).toBe(4)
  })
})

describe('buildChunkGraph without a model', () => {
  const options = {
    sequence: true,
    sharedEntities: true,
    minSharedEntities: 2,
    llm: null,
    crossDocument: null,
    prompt: '',
    concurrency: 1,
    minEdgeWeight: 0,
    maxEdgesPerChunk: 0,
  }

  it('combines sequence and shared-entity edges; a1>a2 exists as both relations', async () => {
    const result = await buildChunkGraph(UNITS, TITLES, options, {})
    expect(result.rows.map((r) => `${r.source_id}>${r.target_id}:${r.relation}`)).toEqual([
      'a1>a2:related_to',
      'a1>a2:sequence',
      'a1>b1:related_to',
      'a2>a1:related_to',
      'a2>b1:related_to',
      'a2>a3:sequence',
      'b1>a1:related_to',
      'b1>a2:related_to',
      'b1>b2:sequence',
    ])
    expect(result.proposed).toEqual({ sequence: 3, shared_entities: 6, llm: 0, cross_document: 0, cooccurrence: 0 })
    expect(result.calls).toBe(0)
  })

  it('honours the switches and the pruning settings', async () => {
    expect((await buildChunkGraph(UNITS, TITLES, { ...options, sharedEntities: false }, {})).rows).toHaveLength(3)
    expect(
      (await buildChunkGraph(UNITS, TITLES, { ...options, sequence: false, minEdgeWeight: 0.9 }, {})).rows.map(
        (r) => `${r.source_id}>${r.target_id}`,
      ),
    ).toEqual(['a1>b1', 'b1>a1'])
    const pruned = await buildChunkGraph(UNITS, TITLES, { ...options, maxEdgesPerChunk: 1 }, {})
    // a1, a2 and b1 have 3 outgoing edges each; a1's two of weight 1 tie, and the one proposed first (sequence) stays.
    expect(pruned.rows.filter((r) => r.source_id === 'a1').map((r) => `${r.target_id}:${r.relation}`)).toEqual([
      'a2:sequence',
    ])
    // Shared-entity edges are already capped per unit as they are counted (a1, a2, b1 keep 1 each), so 3 remain to prune.
    expect(pruned.pruned).toBe(3)
  })
})
