// The extractive writer's TextRank: its scores decide which sentences every offline report quotes, so
// the faster form (shared words from an inverted list, transitions divided once and read by row) must
// give the straightforward computation's scores to the last bit, not just the same order.
import { describe, expect, it } from 'vitest'
import { textRank } from '../../../src/index/operations/extractive-report/textrank.js'

const DAMPING = 0.85

/** TextRank as first written: every pair's word lists merged, each transition divided at every step. */
function referenceTextRank(sentences: readonly (readonly number[])[], teleport?: readonly number[]): number[] {
  const n = sentences.length
  if (n === 0) return []
  const sets = sentences.map((s) => [...new Set(s)].sort((a, b) => a - b))
  const weights = new Float64Array(n * n)
  const outWeight = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const shared = sets[i]!.filter((w) => sets[j]!.includes(w)).length
      if (shared === 0) continue
      const w = shared / (Math.log(sets[i]!.length + 1) + Math.log(sets[j]!.length + 1))
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
  for (let it = 0; it < 50; it++) {
    const next = new Float64Array(n)
    let dangling = 0
    for (let j = 0; j < n; j++) if (outWeight[j] === 0) dangling += scores[j]!
    for (let i = 0; i < n; i++) {
      let sum = 0
      for (let j = 0; j < n; j++) {
        const w = weights[j * n + i]!
        if (w !== 0) sum += (w / outWeight[j]!) * scores[j]!
      }
      next[i] = (1 - DAMPING) * jump[i]! + DAMPING * (sum + dangling * jump[i]!)
    }
    scores = next
  }
  return [...scores]
}

function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

/** `n` sentences of 0–14 word ids drawn from `vocabulary` (repeats included; some sentences share nothing). */
function sentencesOf(next: () => number, n: number, vocabulary: number): number[][] {
  return Array.from({ length: n }, () =>
    Array.from({ length: Math.floor(next() * 15) }, () => 1000 + Math.floor(next() * vocabulary)),
  )
}

describe('textRank', () => {
  it('gives the scores of the straightforward computation, bit for bit, on dense and sparse sentence sets', () => {
    const next = random(42)
    for (const [n, vocabulary] of [
      [1, 5],
      [7, 4],
      [40, 2000],
      [120, 30],
      [250, 150],
    ] as const) {
      const sentences = sentencesOf(next, n, vocabulary)
      const teleports = [undefined, sentences.map(() => next() * 5), sentences.map(() => 0), sentences.map(() => -1)]
      for (const teleport of teleports)
        expect(textRank(sentences, teleport)).toEqual(referenceTextRank(sentences, teleport))
    }
  })

  it('treats a word repeated within a sentence once and leaves a sentence sharing no word to the jumps', () => {
    const sentences = [[5, 5, 6], [5, 6, 6], [9], [6, 7]]
    const scores = textRank(sentences)
    expect(scores).toEqual(referenceTextRank([[5, 6], [5, 6], [9], [6, 7]]))
    expect(scores[2]).toBeLessThan(scores[0]!)
  })
})
