/**
 * Work buffers allocated once per top-level call (sized to the largest network) and reused by every
 * aggregation level, refinement and hierarchical split, so inner loops never allocate.
 */
import { SubnetworkBuilder } from './subnetwork.js'

export class Scratch {
  readonly capacity: number
  // Local moving: per community [weight, accumulator] pairs, and member counts.
  readonly communityData: Float64Array
  readonly communityCount: Int32Array
  readonly unused: Int32Array
  readonly queue: Int32Array
  readonly stable: Uint8Array
  readonly order: Int32Array
  /**
   * Neighbour-community accumulator. Weights are ≥ 0, so −1 marks an unused slot; every user resets
   * the slots it touched back to −1, which keeps the check to a single memory access per neighbour.
   */
  readonly acc: Float64Array
  readonly touched: Int32Array
  // Renumbering and members-by-community (counting sort).
  readonly map: Int32Array
  readonly start: Int32Array
  readonly members: Int32Array
  // Refinement (indexed by local id in compat mode, by node id in quality mode).
  readonly refComm: Int32Array
  readonly singleton: Uint8Array
  readonly refWeight: Float64Array
  readonly refExternal: Float64Array
  readonly cumulative: Float64Array
  /** Global → local id map shared by both subnetwork builders; all −1 between builds. */
  readonly globalToLocal: Int32Array
  readonly refinementSub: SubnetworkBuilder
  readonly splitSub: SubnetworkBuilder
  /** Two alternating aggregate buffers: the network of depth d+1 is written while depth d is read. */
  readonly aggregates: readonly [AggregateBuffer, AggregateBuffer] = [new AggregateBuffer(), new AggregateBuffer()]
  // Per aggregation depth: refined maps and block partitions live until an iteration unwinds.
  private readonly refinedPool: Int32Array[] = []
  private readonly blockPool: Int32Array[] = []

  constructor(capacity: number) {
    const n = Math.max(1, capacity)
    this.capacity = n
    this.communityData = new Float64Array(2 * n)
    this.communityCount = new Int32Array(n)
    this.unused = new Int32Array(n)
    this.queue = new Int32Array(n)
    this.stable = new Uint8Array(n)
    this.order = new Int32Array(n)
    this.acc = new Float64Array(n).fill(-1)
    this.touched = new Int32Array(n)
    this.map = new Int32Array(n)
    this.start = new Int32Array(n + 1)
    this.members = new Int32Array(n)
    this.refComm = new Int32Array(n)
    this.singleton = new Uint8Array(n)
    this.refWeight = new Float64Array(n)
    this.refExternal = new Float64Array(n)
    this.cumulative = new Float64Array(n + 1)
    this.globalToLocal = new Int32Array(n).fill(-1)
    this.refinementSub = new SubnetworkBuilder(this.globalToLocal)
    this.splitSub = new SubnetworkBuilder(this.globalToLocal)
  }

  /** Refined-community map for aggregation depth `depth`, length n (contents undefined). */
  refinedBuffer(depth: number, n: number): Int32Array {
    return pooled(this.refinedPool, depth, n)
  }

  /** Block partition (refined piece → community) for depth `depth`, length n (contents undefined). */
  blockBuffer(depth: number, n: number): Int32Array {
    return pooled(this.blockPool, depth, n)
  }

  /** Returns the accumulator slots of touched[0..count) to −1. */
  clearAccumulator(count: number): void {
    const { acc, touched } = this
    for (let i = 0; i < count; i++) acc[touched[i]] = -1
  }
}

function pooled(pool: Int32Array[], depth: number, n: number): Int32Array {
  let buf = pool[depth]
  if (buf === undefined || buf.length < n) {
    buf = new Int32Array(Math.max(n, 16, (buf?.length ?? 0) * 2))
    pool[depth] = buf
  }
  return buf.subarray(0, n)
}

/** Growable arrays holding one aggregate network. */
export class AggregateBuffer {
  offsets = new Int32Array(17)
  nodeWeights = new Float64Array(16)
  neighbors = new Int32Array(16)
  weights = new Float64Array(16)

  /** Makes room for `nodes` nodes and `entries` adjacency entries (contents are not kept). */
  ensure(nodes: number, entries: number): void {
    if (this.nodeWeights.length < nodes) {
      const cap = Math.max(nodes, this.nodeWeights.length * 2)
      this.offsets = new Int32Array(cap + 1)
      this.nodeWeights = new Float64Array(cap)
    }
    if (this.neighbors.length < entries) {
      const cap = Math.max(entries, this.neighbors.length * 2)
      this.neighbors = new Int32Array(cap)
      this.weights = new Float64Array(cap)
    }
  }
}
