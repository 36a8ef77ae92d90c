/**
 * Induced subnetwork of one community, built the way graspologic-native's builder sees it (spec
 * leiden.md §5.5): local ids by first appearance while scanning members ascending, rows sorted by
 * local id, each pair weighted from the row of its smaller endpoint, node weight = intra degree.
 * Buffers grow on demand and are reused for every community.
 */
import type { CsrNetwork } from './network.js'

export class SubnetworkBuilder {
  nodeCount = 0
  totalAdjacencyWeight = 0
  localToGlobal = new Int32Array(16)
  offsets = new Int32Array(17)
  neighbors = new Int32Array(16)
  weights = new Float64Array(16)
  nodeWeights = new Float64Array(16)
  private rawNeighbors = new Int32Array(16)
  private rawWeights = new Float64Array(16)
  private rawOffsets = new Int32Array(17)
  private fill = new Int32Array(16)
  private pairA = new Int32Array(16)
  private pairB = new Int32Array(16)
  private pairW = new Float64Array(16)

  /** @param globalToLocal shared map over the parent's node ids, all −1 between calls. */
  constructor(private readonly globalToLocal: Int32Array) {}

  /**
   * Builds the subnetwork of the nodes `members[from..to)` (ascending) whose `membership` equals
   * `community`; members with no intra-community edge do not appear (as in the reference).
   */
  build(
    parent: CsrNetwork,
    members: Int32Array,
    from: number,
    to: number,
    membership: Int32Array,
    community: number,
  ): void {
    this.ensureNodes(to - from)
    const pairs = this.collectPairs(parent, members, from, to, membership, community)
    const n = this.nodeCount
    this.fillSortedRows(n, pairs)
    this.totalAdjacencyWeight = this.weighNodes(n)
    const g2l = this.globalToLocal
    const l2g = this.localToGlobal
    for (let i = 0; i < n; i++) g2l[l2g[i]] = -1
  }

  /**
   * One scan of the members' rows records each internal pair once (from its smaller endpoint, whose
   * weight the reference keeps) while assigning local ids in first-appearance order. Sets
   * `nodeCount`, leaves each local node's degree in rawOffsets[id + 1], and returns the pair count.
   */
  private collectPairs(
    parent: CsrNetwork,
    members: Int32Array,
    from: number,
    to: number,
    membership: Int32Array,
    community: number,
  ): number {
    const { offsets: pOff, neighbors: pNb, weights: pW } = parent
    const g2l = this.globalToLocal
    const l2g = this.localToGlobal
    const deg = this.rawOffsets
    let n = 0
    let pairs = 0
    for (let i = from; i < to; i++) {
      const v = members[i]
      for (let e = pOff[v], end = pOff[v + 1]; e < end; e++) {
        const u = pNb[e]
        if (membership[u] !== community) continue
        if (g2l[v] < 0) {
          g2l[v] = n
          deg[n + 1] = 0
          l2g[n++] = v
        }
        if (g2l[u] < 0) {
          g2l[u] = n
          deg[n + 1] = 0
          l2g[n++] = u
        }
        if (v < u) {
          const lv = g2l[v]
          const lu = g2l[u]
          deg[lv + 1]++
          deg[lu + 1]++
          this.ensurePairs(pairs + 1)
          this.pairA[pairs] = lv
          this.pairB[pairs] = lu
          this.pairW[pairs] = pW[e]
          pairs++
        }
      }
    }
    this.nodeCount = n
    return pairs
  }

  /** Both directions of every pair into rows (raw, then transposed so that each row is sorted by local id). */
  private fillSortedRows(n: number, pairs: number): void {
    const deg = this.rawOffsets
    deg[0] = 0
    for (let i = 0; i < n; i++) deg[i + 1] += deg[i]
    this.ensureEntries(2 * pairs)
    const rawNb = this.rawNeighbors
    const rawW = this.rawWeights
    const fill = this.fill
    for (let i = 0; i < n; i++) fill[i] = deg[i]
    const { pairA, pairB, pairW } = this
    for (let k = 0; k < pairs; k++) {
      const lv = pairA[k]
      const lu = pairB[k]
      const w = pairW[k]
      let p = fill[lv]++
      rawNb[p] = lu
      rawW[p] = w
      p = fill[lu]++
      rawNb[p] = lv
      rawW[p] = w
    }
    // Transpose: visiting rows in ascending local id leaves every destination row sorted.
    const off = this.offsets
    const nb = this.neighbors
    const wt = this.weights
    for (let i = 0; i <= n; i++) off[i] = deg[i]
    for (let i = 0; i < n; i++) fill[i] = deg[i]
    for (let d = 0; d < n; d++) {
      for (let e = deg[d], end = deg[d + 1]; e < end; e++) {
        const p = fill[rawNb[e]]++
        nb[p] = d
        wt[p] = rawW[e]
      }
    }
  }

  /** Node weight = intra-community degree; returns the total adjacency weight. */
  private weighNodes(n: number): number {
    const off = this.offsets
    const wt = this.weights
    const nw = this.nodeWeights
    let sum = 0
    for (let v = 0; v < n; v++) {
      let s = 0
      for (let e = off[v], end = off[v + 1]; e < end; e++) {
        s += wt[e]
        sum += wt[e]
      }
      nw[v] = s
    }
    return sum
  }

  /** A CsrNetwork view (no copy) valid until the next `build`. */
  view(): CsrNetwork {
    const n = this.nodeCount
    const m = this.offsets[n]
    return {
      nodeCount: n,
      offsets: this.offsets.subarray(0, n + 1),
      neighbors: this.neighbors.subarray(0, m),
      weights: this.weights.subarray(0, m),
      nodeWeights: this.nodeWeights.subarray(0, n),
      totalAdjacencyWeight: this.totalAdjacencyWeight,
      selfLoopWeight: 0,
    }
  }

  private ensureNodes(size: number): void {
    if (this.localToGlobal.length >= size) return
    const cap = Math.max(size, this.localToGlobal.length * 2)
    this.localToGlobal = new Int32Array(cap)
    this.offsets = new Int32Array(cap + 1)
    this.rawOffsets = new Int32Array(cap + 1)
    this.nodeWeights = new Float64Array(cap)
    this.fill = new Int32Array(cap)
  }

  private ensurePairs(size: number): void {
    if (this.pairA.length >= size) return
    const cap = Math.max(size, this.pairA.length * 2)
    const a = new Int32Array(cap)
    const b = new Int32Array(cap)
    const w = new Float64Array(cap)
    a.set(this.pairA)
    b.set(this.pairB)
    w.set(this.pairW)
    this.pairA = a
    this.pairB = b
    this.pairW = w
  }

  private ensureEntries(size: number): void {
    if (this.neighbors.length >= size) return
    const cap = Math.max(size, this.neighbors.length * 2)
    this.neighbors = new Int32Array(cap)
    this.weights = new Float64Array(cap)
    this.rawNeighbors = new Int32Array(cap)
    this.rawWeights = new Float64Array(cap)
  }
}
