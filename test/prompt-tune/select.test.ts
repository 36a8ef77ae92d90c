import { describe, expect, it } from 'vitest'
import { indicesWithoutEmbeddings, nearestToCentres, randomIndices } from '../../src/prompt-tune/select.js'

describe('sample selection', () => {
  it('top, all and random pick the expected chunks; random is seeded', () => {
    expect(indicesWithoutEmbeddings('top', 10, 3, 300, 1)).toEqual([0, 1, 2])
    expect(indicesWithoutEmbeddings('all', 4, 2, 300, 1)).toEqual([0, 1, 2, 3])
    const a = randomIndices(100, 5, 42)
    expect(a).toHaveLength(5)
    expect(new Set(a).size).toBe(5)
    expect(randomIndices(100, 5, 42)).toEqual(a)
    expect(randomIndices(100, 5, 43)).not.toEqual(a)
    expect(randomIndices(3, 15, 1)).toEqual([0, 1, 2])
  })

  it('auto embeds at most n-subset-max candidates', () => {
    expect(indicesWithoutEmbeddings('auto', 500, 15, 300, 7)).toHaveLength(300)
    expect(indicesWithoutEmbeddings('auto', 20, 15, 300, 7)).toHaveLength(20)
  })

  it('k-means keeps one chunk per cluster, deterministically', () => {
    // Three tight clusters of four points each, in interleaved order.
    const centres = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]
    const vectors = Array.from({ length: 12 }, (_, i) =>
      centres[i % 3]!.map((x, d) => x + ((i * 7 + d * 3) % 5) * 0.01),
    )
    const picked = nearestToCentres(vectors, 3, 0xdeadbeef)
    expect(picked).toHaveLength(3)
    expect(new Set(picked.map((i) => i % 3)).size).toBe(3)
    expect(nearestToCentres(vectors, 3, 0xdeadbeef)).toEqual(picked)
    expect(nearestToCentres(vectors.slice(0, 2), 3, 1)).toEqual([0, 1])
  })
})
