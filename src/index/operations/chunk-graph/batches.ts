/** Which text units go into one typed-edge call: sliding windows, and cross-document neighbour groups. */
import { cosineSimilarity } from '../../../llm/cosine.js'
import type { ChunkUnit } from './types.js'

/**
 * Windows of `size` positions over `count` items, consecutive windows sharing `overlap` (< size).
 * Every window holds at least 2 items: a last window of one item is widened backwards.
 */
export function slidingWindows(count: number, size: number, overlap: number): Array<[start: number, end: number]> {
  const step = size - overlap
  const windows: Array<[number, number]> = []
  for (let start = 0; count >= 2; start += step) {
    const end = Math.min(start + size, count)
    windows.push([Math.max(0, Math.min(start, end - 2)), end])
    if (end >= count) break
  }
  return windows
}

/**
 * For each unit (in table order), its `topK` most similar units of other documents at or above
 * `threshold`. A pair already sent with an earlier unit is not sent again, so each batch is a unit
 * with the neighbours it is not yet paired with; units without new neighbours get no batch.
 * Brute force over all pairs: the option is meant for corpora of thousands, not millions, of units.
 */
export function crossDocumentBatches(
  units: readonly ChunkUnit[],
  vectors: ReadonlyMap<string, ArrayLike<number>>,
  threshold: number,
  topK: number,
): ChunkUnit[][] {
  const paired = new Set<string>()
  const batches: ChunkUnit[][] = []
  const withVector = units.filter((u) => (vectors.get(u.id)?.length ?? 0) > 0)
  for (const unit of withVector) {
    const own = vectors.get(unit.id)!
    const ranked = withVector
      .filter((other) => other.document_id !== unit.document_id)
      .map((other) => ({ other, similarity: cosineSimilarity(own, vectors.get(other.id)!) }))
      .filter((c) => c.similarity >= threshold)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, topK)
    const fresh = ranked.map((c) => c.other).filter((other) => !paired.has(pairKey(unit.id, other.id)))
    for (const other of fresh) paired.add(pairKey(unit.id, other.id))
    if (fresh.length > 0) batches.push([unit, ...fresh])
  }
  return batches
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`
}

/**
 * The overlapping batches of consecutive text units the typed-edge prompt is asked about, cut per
 * document (documents in order of their first unit): a batch never spans two documents.
 */
export function llmWindows(
  units: readonly ChunkUnit[],
  llm: { batchSize: number; batchOverlap: number },
): ChunkUnit[][] {
  const byDocument = new Map<string, ChunkUnit[]>()
  for (const unit of units) {
    const own = byDocument.get(unit.document_id)
    if (own === undefined) byDocument.set(unit.document_id, [unit])
    else own.push(unit)
  }
  return [...byDocument.values()].flatMap((own) =>
    slidingWindows(own.length, llm.batchSize, llm.batchOverlap).map(([s, e]) => own.slice(s, e)),
  )
}
