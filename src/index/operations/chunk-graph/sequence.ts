/** Sequence edges: each text unit → the next unit of the same document, in chunk order (table order). */
import type { ChunkUnit, DraftEdge } from './types.js'

export function sequenceEdges(units: readonly ChunkUnit[]): DraftEdge[] {
  const lastOfDocument = new Map<string, ChunkUnit>()
  const edges: DraftEdge[] = []
  for (const unit of units) {
    const previous = lastOfDocument.get(unit.document_id)
    if (previous !== undefined) {
      const description = 'continues in the next chunk of the document'
      edges.push({
        source: previous.id,
        target: unit.id,
        relation: 'sequence',
        weight: 1,
        description,
        origin: 'sequence',
      })
    }
    lastOfDocument.set(unit.document_id, unit)
  }
  return edges
}
