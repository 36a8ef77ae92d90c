/**
 * Brute-force nearest neighbours, so tests state expected search orders without going through
 * the vector store's own search.
 */

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(na * nb)
}

/** Document ids by cosine similarity to `query`, most similar first, with their similarity. */
export function nearestByCosine(
  query: ArrayLike<number>,
  vectors: ReadonlyMap<string, ArrayLike<number>>,
): { id: string; similarity: number }[] {
  return [...vectors]
    .map(([id, vector]) => ({ id, similarity: cosine(query, vector) }))
    .sort((a, b) => b.similarity - a.similarity)
}
