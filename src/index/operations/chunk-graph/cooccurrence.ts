/**
 * Co-occurrence edges (the Evolution RAG design's CO_OCCURS_WITH): a sliding window of `window`
 * consecutive text units runs over each document; two units inside one window that mention the
 * same entities get a co_occurs_with edge in each direction. The count is the number of entities
 * they both mention; pairs counting fewer than `minCount` are pruned (COOCCUR_MIN_COUNT). The
 * weight is the count ÷ the largest count kept, in (0, 1] as the walks and bonuses read it; the
 * count itself is in the description.
 */
import type { ChunkUnit, DraftEdge } from './types.js'

export function cooccurrenceEdges(units: readonly ChunkUnit[], window: number, minCount: number): DraftEdge[] {
  const byDocument = new Map<string, ChunkUnit[]>()
  for (const unit of units) {
    const own = byDocument.get(unit.document_id)
    if (own === undefined) byDocument.set(unit.document_id, [unit])
    else own.push(unit)
  }
  const pairs: Array<{ a: ChunkUnit; b: ChunkUnit; count: number }> = []
  for (const own of byDocument.values()) {
    const sets = own.map((u) => new Set(u.entity_ids ?? []))
    own.forEach((a, i) => {
      for (let j = i + 1; j < Math.min(own.length, i + window); j++) {
        const count = [...sets[i]!].filter((e) => sets[j]!.has(e)).length
        if (count >= minCount && count > 0) pairs.push({ a, b: own[j]!, count })
      }
    })
  }
  const most = Math.max(0, ...pairs.map((p) => p.count))
  return pairs.flatMap(({ a, b, count }) => {
    const description = `${count} entities co-occur within ${window} consecutive units`
    const edge = { relation: 'co_occurs_with', weight: count / most, description, origin: 'cooccurrence' as const }
    return [
      { source: a.id, target: b.id, ...edge },
      { source: b.id, target: a.id, ...edge },
    ]
  })
}
