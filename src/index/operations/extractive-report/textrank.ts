/**
 * TextRank over sentences (Mihalcea & Tarau 2004): sentences are nodes, edges weigh shared content
 * words normalised by sentence lengths, scores are a (personalised) PageRank. Deterministic.
 * Not graphology-metrics' pagerank: it has no teleport vector (the writer biases every ranking
 * towards sentences that mention the community's entities) and stops on a tolerance instead of a
 * fixed number of iterations; unbiased, both give the same order.
 */

/** Number of values two ascending int arrays share. */
function overlap(a: Int32Array, b: Int32Array): number {
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) n++, i++, j++
    else if (a[i] < b[j]) i++
    else j++
  }
  return n
}

interface TextRankOptions {
  readonly damping: number
  readonly iterations: number
}

const TEXTRANK_DEFAULTS: TextRankOptions = Object.freeze({ damping: 0.85, iterations: 50 })

/**
 * Scores sentences given as sets of content-word ids. `teleport` (non-negative, any scale) biases
 * the random jumps towards some sentences; uniform when all zero or omitted.
 */
export function textRank(
  sentences: readonly (readonly number[])[],
  teleport?: readonly number[],
  options = TEXTRANK_DEFAULTS,
): number[] {
  const n = sentences.length
  if (n === 0) return []
  const sets = sentences.map((s) => Int32Array.from(new Set(s)).sort())
  const weights = new Float64Array(n * n)
  const outWeight = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const shared = overlap(sets[i], sets[j])
      if (shared === 0) continue
      const w = shared / (Math.log(sets[i].length + 1) + Math.log(sets[j].length + 1))
      weights[i * n + j] = w
      weights[j * n + i] = w
      outWeight[i] += w
      outWeight[j] += w
    }
  }
  const bias = teleport ?? []
  const biasTotal = bias.reduce((s, v) => s + Math.max(0, v), 0)
  const jump = Array.from({ length: n }, (_, i) => (biasTotal > 0 ? Math.max(0, bias[i] ?? 0) / biasTotal : 1 / n))
  let scores = new Float64Array(n).fill(1 / n)
  for (let it = 0; it < options.iterations; it++) {
    const next = new Float64Array(n)
    let dangling = 0
    for (let j = 0; j < n; j++) if (outWeight[j] === 0) dangling += scores[j]
    for (let i = 0; i < n; i++) {
      let sum = 0
      for (let j = 0; j < n; j++) {
        const w = weights[j * n + i]
        if (w !== 0) sum += (w / outWeight[j]) * scores[j]
      }
      next[i] = (1 - options.damping) * jump[i] + options.damping * (sum + dangling * jump[i])
    }
    scores = next
  }
  return [...scores]
}
