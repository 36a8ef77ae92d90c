// The narrowed chunk-graph run (chunk_graph.refresh_documents / refresh_new_units): the batches it
// sends, the typed edges it keeps and the ones it adds.
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../src/errors.js'
import { keptTypedEdges, refreshedEdges, refreshPlan } from '../../../src/index/operations/chunk-graph/refresh.js'
import type { ChunkUnit, DraftEdge } from '../../../src/index/operations/chunk-graph/types.js'
import type { ChunkEdgeRow } from '../../../src/model/chunk-edges.js'

const unit = (document: string, i: number): ChunkUnit => ({
  id: `${document}${i}`,
  human_readable_id: i,
  document_id: document,
  text: `text ${document}${i}`,
  entity_ids: null,
})
const A = Array.from({ length: 6 }, (_, i) => unit('a', i))
const B = Array.from({ length: 3 }, (_, i) => unit('b', i))
const UNITS = [...A, ...B]
const ids = (windows: ChunkUnit[][]) => windows.map((w) => w.map((u) => u.id))
const row = (source: string, target: string, origin: string, relation = 'elaborates'): ChunkEdgeRow => ({
  id: `${source}-${target}-${relation}`,
  source_id: source,
  target_id: target,
  relation,
  weight: 0.5,
  description: '',
  origin,
})
const draft = (source: string, target: string, relation = 'elaborates'): DraftEdge => ({
  source,
  target,
  relation,
  weight: 0.9,
  description: 'new',
  origin: 'llm',
})

describe('refreshPlan', () => {
  it("patch: slides by one unit from the window's tail of old units, so every near pair with a new unit is asked", () => {
    const plan = refreshPlan(UNITS, { documents: new Set(['a']), newUnits: 2, batchSize: 3, batchOverlap: 0 })
    expect(ids(plan.windows)).toEqual([
      ['a2', 'a3', 'a4'],
      ['a3', 'a4', 'a5'],
    ])
    expect([...plan.scope]).toEqual(['a4', 'a5'])
    // a2-a4, a3-a4, a3-a5, a4-a5: the pairs fewer than 3 units apart with a new unit in them.
    expect({ patch: plan.patch, old: plan.old, new: plan.new, pairs: plan.pairs }).toEqual({
      patch: true,
      old: 4,
      new: 2,
      pairs: 4,
    })
  })

  it("rebuild: the document's own batches, every unit of it in scope; too many new units is an error naming the key", () => {
    const plan = refreshPlan(UNITS, { documents: new Set(['b']), newUnits: 0, batchSize: 2, batchOverlap: 0 })
    expect(ids(plan.windows)).toEqual([
      ['b0', 'b1'],
      ['b1', 'b2'],
    ])
    expect([...plan.scope]).toEqual(['b0', 'b1', 'b2'])
    expect(plan.patch).toBe(false)
    expect(() => refreshPlan(UNITS, { documents: new Set(['b']), newUnits: 4, batchSize: 2, batchOverlap: 0 })).toThrow(
      new ConfigError('chunk_graph.refresh_new_units: document b has 3 text units, fewer than the 4 said to be new'),
    )
  })
})

describe('kept and added typed edges', () => {
  const previous = [
    row('a1', 'a0', 'llm'),
    row('b1', 'b0', 'llm'),
    row('a1', 'b1', 'cross_document'),
    row('a5', 'a4', 'llm'),
    row('a2', 'a1', 'sequence', 'sequence'),
    row('gone', 'a0', 'llm'),
  ]
  const unitIds = new Set(UNITS.map((u) => u.id))

  it("a rebuild keeps the typed edges of other documents' units only; a patch keeps every typed edge", () => {
    const rebuild = refreshPlan(UNITS, { documents: new Set(['a']), newUnits: 0, batchSize: 2, batchOverlap: 0 })
    expect(keptTypedEdges(previous, rebuild, unitIds).map((e) => `${e.source}>${e.target}`)).toEqual(['b1>b0'])
    const patch = refreshPlan(UNITS, { documents: new Set(['a']), newUnits: 2, batchSize: 3, batchOverlap: 0 })
    expect(keptTypedEdges(previous, patch, unitIds).map((e) => `${e.source}>${e.target}`)).toEqual([
      'a1>a0',
      'b1>b0',
      'a1>b1',
      'a5>a4',
    ])
  })

  it('a patch adds edges touching a new unit, skips those that exist, and ignores old-to-old ones', () => {
    const plan = refreshPlan(UNITS, { documents: new Set(['a']), newUnits: 2, batchSize: 3, batchOverlap: 0 })
    const kept = [draft('a4', 'a3'), draft('a1', 'a0')]
    const proposed = [
      draft('a3', 'a2'),
      draft('a4', 'a3'),
      draft('a5', 'a4'),
      draft('a5', 'a4'),
      draft('a5', 'a3', 'references'),
    ]
    const added = refreshedEdges(proposed, plan, kept)
    expect(added.edges.map((e) => `${e.source}>${e.target}:${e.relation}`)).toEqual([
      'a5>a4:elaborates',
      'a5>a4:elaborates',
      'a5>a3:references',
    ])
    expect({ created: added.created, skipped: added.skipped }).toEqual({ created: 2, skipped: 1 })
  })
})
