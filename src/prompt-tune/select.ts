/**
 * Which chunks become the sample prompt-tune learns from: `top` (the first ones), `random` (a seeded
 * draw), `all`, or `auto` (k-means over chunk embeddings; the chunk nearest each centre is kept, so
 * the sample spreads over the corpus's topics instead of repeating its largest one).
 */
import { XorShift128 } from '../graph/leiden/rng.js'

export type SelectionMethod = 'random' | 'top' | 'all' | 'auto'

/** Indices of `count` items drawn without replacement, in ascending order (reading order). */
export function randomIndices(total: number, count: number, seed: number): number[] {
  const rng = new XorShift128(seed)
  const order = Array.from({ length: total }, (_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.genRange(i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  return order.slice(0, Math.min(count, total)).sort((a, b) => a - b)
}

/** Indices for the methods that need no embeddings; `auto` returns the candidates to embed. */
export function indicesWithoutEmbeddings(
  method: SelectionMethod,
  total: number,
  limit: number,
  nSubsetMax: number,
  seed: number,
): number[] {
  switch (method) {
    case 'all':
      return Array.from({ length: total }, (_, i) => i)
    case 'top':
      return Array.from({ length: Math.min(limit, total) }, (_, i) => i)
    case 'random':
      return randomIndices(total, limit, seed)
    case 'auto':
      return total <= nSubsetMax ? Array.from({ length: total }, (_, i) => i) : randomIndices(total, nSubsetMax, seed)
  }
}

/**
 * k-means (k-means++ seeding, Lloyd iterations) over unit-length vectors; returns, per centre, the
 * index of the nearest vector, distinct and in ascending order. Deterministic for a given seed.
 */
export function nearestToCentres(
  vectors: readonly (readonly number[])[],
  k: number,
  seed: number,
  maxIterations = 50,
): number[] {
  const points = vectors.map(unit)
  if (points.length <= k) return points.map((_, i) => i)
  const rng = new XorShift128(seed)
  let centres = seedCentres(points, k, rng)
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const assignment = points.map((p) => nearest(p, centres))
    const next = centres.map((centre, c) => mean(points.filter((_, i) => assignment[i] === c)) ?? centre)
    const moved = next.some((centre, c) => distance2(centre, centres[c]!) > 1e-12)
    centres = next
    if (!moved) break
  }
  const chosen = new Set<number>()
  for (const centre of centres) {
    const order = points.map((p, i) => ({ i, d: distance2(p, centre) })).sort((a, b) => a.d - b.d || a.i - b.i)
    const pick = order.find((o) => !chosen.has(o.i))
    if (pick !== undefined) chosen.add(pick.i)
  }
  return [...chosen].sort((a, b) => a - b)
}

function seedCentres(points: readonly number[][], k: number, rng: XorShift128): number[][] {
  const centres = [points[rng.genRange(points.length)]!]
  while (centres.length < k) {
    const weights = points.map((p) => Math.min(...centres.map((c) => distance2(p, c))))
    const total = weights.reduce((a, b) => a + b, 0)
    if (total === 0) break
    let target = rng.nextF64() * total
    let index = weights.findIndex((w) => (target -= w) <= 0)
    if (index < 0) index = points.length - 1
    centres.push(points[index]!)
  }
  return centres
}

function nearest(point: readonly number[], centres: readonly number[][]): number {
  let best = 0
  let bestDistance = Infinity
  centres.forEach((c, i) => {
    const d = distance2(point, c)
    if (d < bestDistance) [best, bestDistance] = [i, d]
  })
  return best
}

function mean(points: readonly number[][]): number[] | undefined {
  if (points.length === 0) return undefined
  const out = new Array<number>(points[0]!.length).fill(0)
  for (const p of points) for (let i = 0; i < out.length; i++) out[i]! += p[i]! / points.length
  return out
}

function unit(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0))
  return norm === 0 ? [...vector] : vector.map((x) => x / norm)
}

function distance2(a: readonly number[], b: readonly number[]): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += (a[i]! - (b[i] ?? 0)) ** 2
  return s
}
