import { describe, expect, it } from 'vitest'
import { measureUpdateReach, type ReachTables } from '../../../src/index/operations/update-reach.js'

/**
 * Three documents: d1 (units u1, u2), d2 (u3), d3 (u4). Entities: A (u1), B (u2, u3), C (u4), D (no unit
 * known). Communities: level 0 c0 {A, B}, c1 {C, D}; level 1 c2 {A}, c3 {B}, c4 {C}.
 */
const TABLES: ReachTables = {
  documents: [{ id: 'd1' }, { id: 'd2' }, { id: 'd3' }],
  textUnits: [
    { id: 'u1', document_id: 'd1', n_tokens: 100 },
    { id: 'u2', document_id: 'd1', n_tokens: 200 },
    { id: 'u3', document_id: 'd2', n_tokens: 300 },
    { id: 'u4', document_id: 'd3', n_tokens: 400 },
  ],
  entities: [
    { id: 'A', text_unit_ids: ['u1'] },
    { id: 'B', text_unit_ids: ['u2', 'u3'] },
    { id: 'C', text_unit_ids: ['u4'] },
    { id: 'D', text_unit_ids: null },
  ],
  communities: [
    { entity_ids: ['A', 'B'] }, // c0
    { entity_ids: ['C', 'D'] }, // c1
    { entity_ids: ['A'] }, // c2
    { entity_ids: ['B'] }, // c3
    { entity_ids: ['C'] }, // c4
  ],
}

describe('measureUpdateReach', () => {
  it('a deleted document reaches the communities of its entities at every level, once each', () => {
    // d2's only entity B sits in c0 (level 0) and c3 (level 1); B stays (d1 mentions it too).
    const reach = measureUpdateReach(TABLES, ['d2'], 0)
    expect(reach).toMatchObject({ total: 5, replacedDocuments: 1, reached: 2, shrinking: 0, newDocuments: 0, count: 2 })
    expect(reach.members).toBe((2 + 1) / 2)
    expect(reach.unitTokens).toBe(250)
  })

  it('a reached community that loses an entity outright counts one more (a neighbour may take the rest)', () => {
    // d3 alone mentions C: c1 and c4 lose it. D, with no known text unit, is not counted as lost.
    expect(measureUpdateReach(TABLES, ['d3'], 0)).toMatchObject({ reached: 2, shrinking: 2, count: 4 })
    // d1 and d2 together: A and B vanish from c0, c2 and c3; 3 + 3 capped at the 5 communities.
    expect(measureUpdateReach(TABLES, ['d1', 'd2'], 0)).toMatchObject({ reached: 3, shrinking: 3, count: 5 })
  })

  it('a new document counts as the mean reach of a previous document, rounded up', () => {
    // Per document: d1 3, d2 2, d3 2 (c1 and c4): mean 7/3.
    const reach = measureUpdateReach(TABLES, [], 1)
    expect(reach.perDocument).toBeCloseTo(7 / 3)
    expect(reach).toMatchObject({ reached: 0, count: 3 })
    // Sized like the communities a previous document reaches: (2+1+1) + (2+1) + (2+1) over 7 pairs.
    expect(reach.members).toBeCloseTo(10 / 7)
    // A whole mean adds no rounding: 3 new documents × 7/3 = 7, capped at the 5 communities.
    expect(measureUpdateReach(TABLES, [], 3).count).toBe(5)
    expect(measureUpdateReach(TABLES, ['d2'], 1)).toMatchObject({ reached: 2, count: Math.ceil(2 + 7 / 3) })
  })

  it('is capped at the number of communities and is zero on an index without communities', () => {
    expect(measureUpdateReach(TABLES, ['d1', 'd2', 'd3'], 2)).toMatchObject({ reached: 5, count: 5 })
    const empty = measureUpdateReach({ ...TABLES, communities: [] }, ['d1'], 1)
    expect(empty).toMatchObject({ total: 0, reached: 0, perDocument: 0, count: 0, members: 0 })
  })

  it('equals the per-document count on generated indexes (units of unlisted documents, entities in several communities)', () => {
    let state = 11
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648
      return Math.floor((state / 2147483648) * n)
    }
    for (let run = 0; run < 40; run++) {
      const documents = Array.from({ length: 1 + next(6) }, (_, d) => ({ id: `d${d}` }))
      // Units of d0..d7: some documents are not listed any more.
      const textUnits = Array.from({ length: 12 }, (_, u) => ({
        id: `u${u}`,
        document_id: `d${next(8)}`,
        n_tokens: 10,
      }))
      const entities = Array.from({ length: 15 }, (_, e) => ({
        id: `e${e}`,
        text_unit_ids: next(5) === 0 ? null : Array.from({ length: next(4) }, () => `u${next(12)}`),
      }))
      const communities = Array.from({ length: 1 + next(10) }, () => ({
        entity_ids: next(6) === 0 ? null : Array.from({ length: 1 + next(5) }, () => `e${next(15)}`),
      }))
      const tables: ReachTables = { documents, textUnits, entities, communities }
      const changed = documents.filter(() => next(3) === 0).map((d) => d.id)
      const expected = perDocumentReference(tables, changed)
      const reach = measureUpdateReach(tables, changed, 2)
      expect({ reached: reach.reached, perDocument: reach.perDocument, members: reach.members }, `run ${run}`).toEqual(
        expected,
      )
    }
  })
})

/** The straightforward count: each listed document's set of reached communities. */
function perDocumentReference(tables: ReachTables, changed: readonly string[]) {
  const documentOf = new Map(tables.textUnits.map((u) => [u.id, u.document_id]))
  const reachOf = (document: string) => {
    const out = new Set<number>()
    tables.communities.forEach((c, index) => {
      for (const e of c.entity_ids ?? []) {
        const units = tables.entities.find((x) => x.id === e)?.text_unit_ids ?? []
        if (units.some((u) => documentOf.get(u) === document)) out.add(index)
      }
    })
    return out
  }
  const size = (index: number) => tables.communities[index]!.entity_ids?.length ?? 0
  const reached = new Set(changed.flatMap((d) => [...reachOf(d)]))
  let pairs = 0
  let pairMembers = 0
  for (const { id } of tables.documents)
    for (const index of reachOf(id)) [pairs, pairMembers] = [pairs + 1, pairMembers + size(index)]
  const n = tables.documents.length
  const added = (2 * pairs) / n
  const reachedMembers = [...reached].reduce((sum, index) => sum + size(index), 0)
  const members =
    reached.size + added === 0
      ? 0
      : (reachedMembers + added * (pairs === 0 ? 0 : pairMembers / pairs)) / (reached.size + added)
  return { reached: reached.size, perDocument: pairs / n, members }
}
