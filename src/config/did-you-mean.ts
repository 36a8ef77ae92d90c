/** Suggests the known key closest to a misspelt one (`sise` → `size`), by edit distance. */

/** The closest candidate within a distance that still reads as a typo, else undefined. */
export function closestKey(key: string, candidates: Iterable<string>): string | undefined {
  const limit = key.length <= 4 ? 1 : key.length <= 8 ? 2 : 3
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of candidates) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[a.length]![b.length]!
}
