// Paper refinement (quality mode) against a slow reference that recomputes every piece's weight and
// external weight from scratch before each decision, consuming the same random stream. It shares no code
// with src beyond the random stream: its exp approximation and weighted pick are written out here.
import { describe, expect, it } from 'vitest'
import { buildNetwork, type CsrNetwork, type LabeledNetwork } from '../../../src/graph/leiden/index.js'
import { refinePartition } from '../../../src/graph/leiden/refinement.js'
import { XorShift128 } from '../../../src/graph/leiden/rng.js'
import { Scratch } from '../../../src/graph/leiden/scratch.js'
import { plantedPartition, seededRandom } from './graphs.js'

/** (1 + x/256)^256 by eight squarings, the exp approximation the reference implementations use (0 below -256). */
function referenceExp(x: number): number {
  if (x < -256) return 0
  let y = 1 + x / 256
  for (let i = 0; i < 8; i++) y *= y
  return y
}

/** The first candidate whose running total exceeds `target` (the last one when none does). */
function referencePick(cumulative: Float64Array, count: number, target: number): number {
  for (let j = 0; j < count; j++) if (cumulative[j]! > target) return j
  return count - 1
}

/** Refined piece per node, pieces numbered as refinePartition numbers them. */
function referenceRefinement(
  g: CsrNetwork,
  membership: Int32Array,
  k: number,
  r: number,
  theta: number,
  rng: XorShift128,
): Int32Array {
  const { offsets, neighbors, weights, nodeWeights } = g
  const refined = new Int32Array(g.nodeCount)
  let offset = 0
  for (let c = 0; c < k; c++) {
    const members: number[] = []
    for (let v = 0; v < g.nodeCount; v++) if (membership[v] === c) members.push(v)
    const piece = new Map(members.map((v) => [v, v]))
    const total = members.reduce((sum, v) => sum + nodeWeights[v], 0)
    const weightOf = (p: number): number =>
      members.reduce((sum, v) => (piece.get(v) === p ? sum + nodeWeights[v] : sum), 0)
    const externalOf = (p: number): number => {
      let sum = 0
      for (const v of members) {
        if (piece.get(v) !== p) continue
        for (let e = offsets[v]; e < offsets[v + 1]; e++) {
          const u = neighbors[e]
          if (membership[u] === c && piece.get(u) !== p) sum += weights[e]
        }
      }
      return sum
    }
    const wellConnected = (p: number): boolean => {
      const w = weightOf(p)
      return externalOf(p) >= w * (total - w) * r
    }
    if (members.length > 1) {
      const order = [...members]
      for (let i = order.length - 1; i > 0; i--) {
        const j = rng.genRange(i + 1)
        ;[order[i], order[j]] = [order[j], order[i]]
      }
      for (const v of order) {
        const alone = piece.get(v) === v && members.every((u) => u === v || piece.get(u) !== v)
        if (!alone || !wellConnected(v)) continue
        piece.set(v, -1)
        // Candidates: v's own (now empty) piece, then neighbouring pieces by first appearance in v's row.
        const candidates = [v]
        const toward = new Map([[v, 0]])
        for (let e = offsets[v]; e < offsets[v + 1]; e++) {
          const u = neighbors[e]
          if (membership[u] !== c) continue
          const p = piece.get(u) as number
          if (!toward.has(p)) candidates.push(p)
          toward.set(p, (toward.get(p) ?? 0) + weights[e])
        }
        const cumulative = new Float64Array(candidates.length)
        let best = v
        let bestQ = 0
        let sum = 0
        candidates.forEach((p, j) => {
          if (p === v || wellConnected(p)) {
            const q = (toward.get(p) as number) - nodeWeights[v] * (p === v ? 0 : weightOf(p)) * r
            if (q > bestQ) {
              bestQ = q
              best = p
            }
            if (q >= 0) sum += referenceExp(q / theta)
          }
          cumulative[j] = sum
        })
        let chosen = best
        if (Number.isFinite(sum)) chosen = candidates[referencePick(cumulative, candidates.length, sum * rng.nextF64())]
        piece.set(v, chosen)
      }
    }
    const number = new Map<number, number>()
    for (const v of members) {
      const p = piece.get(v) as number
      if (!number.has(p)) number.set(p, number.size)
      refined[v] = offset + (number.get(p) as number)
    }
    offset += number.size
  }
  return refined
}

/** Planted graph with weights in halves (exact float sums, so both sides compare bit for bit). */
function halfWeightGraph(n: number, seed: number): LabeledNetwork {
  return buildNetwork(plantedPartition(n, seed, { block: 25, mixing: 0.4 }).map(([s, t, w]) => [s, t, w / 2] as const))
}

describe('paper refinement', () => {
  const cases = [
    { name: 'random communities, greedy (θ 0.001)', planted: false, theta: 0.001, scale: 1 },
    { name: 'random communities, random choices (θ 0.05)', planted: false, theta: 0.05, scale: 1 },
    { name: 'planted communities, random choices (θ 0.05)', planted: true, theta: 0.05, scale: 1 },
    // Resolution near the point where a planted block stops being well connected: many nodes and
    // pieces fail the test, so the external weights decide the outcome.
    { name: 'planted communities, high resolution', planted: true, theta: 0.05, scale: 8 },
  ]
  for (const { name, planted, theta, scale } of cases) {
    it(`matches the slow reference: ${name}`, () => {
      for (let seed = 0; seed < 6; seed++) {
        const { network: g, labels } = halfWeightGraph(300, seed)
        const r = scale / g.totalAdjacencyWeight
        const rand = seededRandom(seed)
        // Refinement accepts any partition, connected or not.
        const k = planted ? 12 : 6
        const membership = Int32Array.from(labels, (label) =>
          planted ? Math.floor(Number(label.slice(1)) / 25) : Math.floor(rand() * k),
        )
        const expected = referenceRefinement(g, membership, k, r, theta, new XorShift128(seed))
        const s = new Scratch(g.nodeCount)
        const got = refinePartition(g, membership, k, r, theta, new XorShift128(seed), s, false, 0)
        expect(Array.from(got.refined.subarray(0, g.nodeCount)), `seed ${seed}`).toEqual(Array.from(expected))
      }
    })
  }
})

/**
 * graspologic-native's refinement (compat mode), written from spec leiden.md §5.5–5.6 with the same
 * recompute-everything approach: each community's nodes get local ids by first appearance over the
 * members' rows, node weights are intra-community degrees, the shuffle is the naive one, candidates
 * follow local id order, and pieces are numbered by their surviving local id.
 */
function referenceCompatRefinement(
  g: CsrNetwork,
  membership: Int32Array,
  k: number,
  r: number,
  theta: number,
  rng: XorShift128,
): Int32Array {
  const { offsets, neighbors, weights } = g
  const refined = new Int32Array(g.nodeCount)
  let offset = 0
  for (let c = 0; c < k; c++) {
    const members: number[] = []
    for (let v = 0; v < g.nodeCount; v++) if (membership[v] === c) members.push(v)
    if (members.length === 1) {
      refined[members[0]!] = offset++
      continue
    }
    const local = new Map<number, number>()
    const global: number[] = []
    const intra = (v: number): number[] => {
      const out: number[] = []
      for (let e = offsets[v]; e < offsets[v + 1]; e++) if (membership[neighbors[e]] === c) out.push(e)
      return out
    }
    for (const v of members)
      for (const e of intra(v))
        for (const x of [v, neighbors[e]])
          if (!local.has(x)) {
            local.set(x, global.length)
            global.push(x)
          }
    // Local rows, sorted by local id: [neighbour, weight].
    const rows = global.map((v) =>
      intra(v)
        .map((e) => [local.get(neighbors[e]) as number, weights[e]] as const)
        .sort((a, b) => a[0] - b[0]),
    )
    const n = global.length
    const degree = rows.map((row) => row.reduce((sum, [, w]) => sum + w, 0))
    const total = degree.reduce((a, b) => a + b, 0)
    const piece = Array.from({ length: n }, (_, l) => l)
    const weightOf = (p: number) => piece.reduce((sum, q, l) => (q === p ? sum + degree[l]! : sum), 0)
    const externalOf = (p: number) =>
      piece.reduce(
        (sum, q, l) => (q !== p ? sum : rows[l]!.reduce((s, [u, w]) => (piece[u] !== p ? s + w : s), sum)),
        0,
      )
    const wellConnected = (p: number) => externalOf(p) >= weightOf(p) * (total - weightOf(p)) * r
    const order = Array.from({ length: n }, (_, l) => l)
    for (let i = 0; i < n; i++) {
      const j = rng.genRange(n)
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    for (const v of order) {
      const alone = piece[v] === v && piece.every((p, l) => l === v || p !== v)
      if (!alone || !wellConnected(v)) continue
      piece[v] = -1
      const candidates = [v]
      const toward = new Map([[v, 0]])
      for (const [u, w] of rows[v]!) {
        const p = piece[u]!
        if (!toward.has(p)) candidates.push(p)
        toward.set(p, (toward.get(p) ?? 0) + w)
      }
      const cumulative = new Float64Array(candidates.length)
      let best = v
      let bestQ = 0
      let sum = 0
      candidates.forEach((p, j) => {
        if (p === v || wellConnected(p)) {
          const q = (toward.get(p) as number) - degree[v]! * (p === v ? 0 : weightOf(p)) * r
          if (q > bestQ) {
            bestQ = q
            best = p
          }
          if (q >= 0) sum += referenceExp(q / theta)
        }
        cumulative[j] = sum
      })
      let chosen = best
      if (Number.isFinite(sum)) chosen = candidates[referencePick(cumulative, candidates.length, sum * rng.nextF64())]!
      piece[v] = chosen
    }
    const roots = [...new Set(piece)].sort((a, b) => a - b)
    piece.forEach((p, l) => {
      refined[global[l]!] = offset + roots.indexOf(p)
    })
    offset += roots.length
  }
  return refined
}

/**
 * The planted blocks, except that a node with no neighbour in its block is a community of its own:
 * compat refinement, like the reference, takes only communities local moving can leave.
 */
function plantedWithIntraEdges(g: CsrNetwork, labels: readonly string[]): { membership: Int32Array; k: number } {
  const block = Int32Array.from(labels, (label) => Math.floor(Number(label.slice(1)) / 25))
  const membership = Int32Array.from(block)
  let k = Math.max(...block) + 1
  for (let v = 0; v < g.nodeCount; v++) {
    let inside = false
    for (let e = g.offsets[v]; e < g.offsets[v + 1]; e++) if (block[g.neighbors[e]] === block[v]) inside = true
    if (!inside) membership[v] = k++
  }
  return { membership, k }
}

describe('compat refinement', () => {
  const cases = [
    { name: 'planted communities, random choices (θ 0.05)', theta: 0.05, scale: 1 },
    { name: 'planted communities, high resolution', theta: 0.05, scale: 8 },
  ]
  for (const { name, theta, scale } of cases) {
    it(`matches the slow reference: ${name}`, () => {
      for (let seed = 0; seed < 6; seed++) {
        const { network: g, labels } = halfWeightGraph(300, seed)
        const r = scale / g.totalAdjacencyWeight
        const { membership, k } = plantedWithIntraEdges(g, labels)
        const expected = referenceCompatRefinement(g, membership, k, r, theta, new XorShift128(seed))
        const s = new Scratch(g.nodeCount)
        const got = refinePartition(g, membership, k, r, theta, new XorShift128(seed), s, true, 0)
        expect(Array.from(got.refined.subarray(0, g.nodeCount)), `seed ${seed}`).toEqual(Array.from(expected))
      }
    })
  }
})
