/** Edit distance between short strings: did-you-mean hints for settings keys, fuzzy entity-name matching. */

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
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

/**
 * 1 − distance ÷ the longer length: 1 for equal strings, 0 for nothing in common. Strings whose
 * lengths alone rule out `atLeast` are answered 0 without the quadratic table.
 */
export function editSimilarity(a: string, b: string, atLeast = 0): number {
  const longer = Math.max(a.length, b.length)
  if (longer === 0) return 1
  if (1 - Math.abs(a.length - b.length) / longer < atLeast) return 0
  return 1 - editDistance(a, b) / longer
}
