// bestOf picks the extractive writer's candidate sentences: it must return exactly the prefix the full
// sort gives (the reports quote from it), for any order of the input and any count.
import { describe, expect, it } from 'vitest'
import { bestOf } from '../../../src/index/operations/extractive-report/best-of.js'

function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

interface Scored {
  readonly score: number
  readonly index: number
}

/** Highest score first, then the lower index: a total order, as the writer's. */
const better = (a: Scored, b: Scored) => b.score - a.score || a.index - b.index

describe('bestOf', () => {
  it('returns the first count items of the full sort, for random, ascending and descending inputs', () => {
    const next = random(3)
    for (const length of [0, 1, 5, 249, 250, 251, 2000]) {
      // Few distinct scores, so ties decided by the index are common.
      const items = Array.from({ length }, (_, index) => ({ score: Math.floor(next() * 40), index }))
      const inputs = [items, [...items].sort(better), [...items].sort(better).reverse()]
      for (const input of inputs)
        for (const count of [0, 1, 8, 250, 3000])
          expect(bestOf(input, count, better)).toEqual([...items].sort(better).slice(0, count))
    }
  })

  it('leaves its input as it was', () => {
    const items = [3, 1, 2, 5, 4].map((score, index) => ({ score, index }))
    const copy = [...items]
    bestOf(items, 2, better)
    expect(items).toEqual(copy)
  })
})
