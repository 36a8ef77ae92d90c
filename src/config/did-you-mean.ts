/** Suggests the known key closest to a misspelt one (`sise` → `size`), by edit distance. */
import { editDistance } from '../text/edit-distance.js'

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
