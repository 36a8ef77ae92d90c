/** Cutting a text unit to a token budget for the typed-edge prompt (chunk_graph.relation_unit_max_tokens). */

/**
 * The longest prefix of `text` ending at a word boundary whose token count is at most `maxTokens`
 * (binary search over the boundaries: O(log n) counts), followed by ` …` when anything was cut.
 * A first word longer than the budget is cut by characters. `maxTokens` 0 leaves the text whole.
 */
export function truncateToTokens(text: string, maxTokens: number, countTokens: (text: string) => number): string {
  if (maxTokens <= 0 || countTokens(text) <= maxTokens) return text
  const ends = [...text.matchAll(/\S+/g)].map((m) => m.index + m[0].length)
  const fits = (end: number) => countTokens(text.slice(0, end)) <= maxTokens
  let low = 0
  let high = ends.length
  // Invariant: ends[low - 1] fits (or low = 0), ends[high] does not (or high = ends.length).
  while (low < high) {
    const mid = (low + high) >> 1
    if (fits(ends[mid]!)) low = mid + 1
    else high = mid
  }
  if (low > 0) return `${text.slice(0, ends[low - 1])} …`
  let chars = text.trimStart().length
  const start = text.length - chars
  while (chars > 1 && !fits(start + chars)) chars = Math.floor(chars / 2)
  return `${text.slice(0, start + chars)} …`
}
