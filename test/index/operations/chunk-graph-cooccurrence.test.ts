/** co_occurs_with edges (the Evolution RAG design's CO_OCCURS_WITH): a sliding window per document, counts, pruning. */
import { describe, expect, it } from 'vitest'
import { validateSettings } from '../../../src/config/validate.js'
import { buildChunkGraph } from '../../../src/index/operations/chunk-graph/build.js'
import { cooccurrenceEdges } from '../../../src/index/operations/chunk-graph/cooccurrence.js'
import type { ChunkUnit } from '../../../src/index/operations/chunk-graph/types.js'

const unit = (id: string, hr: number, doc: string, entities: string[]): ChunkUnit => ({
  id,
  human_readable_id: hr,
  document_id: doc,
  text: `text of ${id}`,
  entity_ids: entities,
})
// Table order interleaves the documents; b1 shares three entities with a1 but lives in another document.
const UNITS = [
  unit('a1', 0, 'A', ['e1', 'e2', 'e3']),
  unit('b1', 1, 'B', ['e1', 'e2', 'e3']),
  unit('a2', 2, 'A', ['e1', 'e2']),
  unit('a3', 3, 'A', ['e1', 'e2', 'e3', 'e4']),
  unit('a4', 4, 'A', ['e4']),
]
const pairs = (edges: ReturnType<typeof cooccurrenceEdges>) =>
  edges.map((e) => `${e.source}>${e.target}:${e.description.split(' ')[0]}:${e.weight.toFixed(2)}`)

describe('co-occurrence edges', () => {
  it('link units of one document within the window, both directions, count in the description, weight ÷ the largest', () => {
    expect(pairs(cooccurrenceEdges(UNITS, 2, 2))).toEqual([
      'a1>a2:2:1.00',
      'a2>a1:2:1.00',
      'a2>a3:2:1.00',
      'a3>a2:2:1.00',
    ])
  })

  it('a wider window reaches further; pairs under the minimum count are pruned', () => {
    expect(pairs(cooccurrenceEdges(UNITS, 3, 2))).toEqual([
      'a1>a2:2:0.67',
      'a2>a1:2:0.67',
      'a1>a3:3:1.00',
      'a3>a1:3:1.00',
      'a2>a3:2:0.67',
      'a3>a2:2:0.67',
    ])
    expect(pairs(cooccurrenceEdges(UNITS, 3, 3))).toEqual(['a1>a3:3:1.00', 'a3>a1:3:1.00'])
    // At a minimum of 1, a3 and a4 (one shared entity) are linked too.
    expect(pairs(cooccurrenceEdges(UNITS, 2, 1))).toContain('a3>a4:1:0.50')
  })

  it('are built by buildChunkGraph when configured, with origin cooccurrence, and not otherwise', async () => {
    const options = {
      sequence: false,
      sharedEntities: false,
      minSharedEntities: 2,
      llm: null,
      crossDocument: null,
      prompt: '',
      concurrency: 1,
      minEdgeWeight: 0,
      maxEdgesPerChunk: 0,
    }
    const on = await buildChunkGraph(UNITS, new Map(), { ...options, cooccurrence: { window: 2, minCount: 2 } }, {})
    expect(on.proposed.cooccurrence).toBe(4)
    expect(on.rows.map((r) => [r.relation, r.origin])).toEqual(Array(4).fill(['co_occurs_with', 'cooccurrence']))
    const off = await buildChunkGraph(UNITS, new Map(), { ...options, cooccurrence: null }, {})
    expect(off.rows).toEqual([])
  })

  it('are settings of chunk_graph (off by default, window 2, minimum count 2 as in the design)', () => {
    const result = validateSettings({ chunk_graph: { cooccurrence_edges: true } }, { root: '/project' })
    if (!result.ok) throw new Error(result.errors.join('\n'))
    expect(result.settings.chunk_graph).toMatchObject({
      cooccurrence_edges: true,
      cooccurrence_window: 2,
      cooccurrence_min_count: 2,
    })
    expect(result.settings.hybrid_search.edge_weights.co_occurs_with).toBe(0.1)
  })
})
