/**
 * Work buffers allocated once per top-level call (sized to the largest network) and reused by every
 * aggregation level, refinement and hierarchical split, so inner loops never allocate.
 */
import { SubnetworkBuilder } from './subnetwork.js'

export class Scratch {
  readonly capacity: number
  // Local moving.
  readonly clusterWeight: Float64Array
  readonly clusterCount: Int32Array
  readonly unused: Int32Array
  readonly queue: Int32Array
  readonly stable: Uint8Array
  readonly order: Int32Array
  // Neighbour-community accumulator: a slot is live only when stamp[c] equals the current stamp.
  readonly acc: Float64Array
  readonly stamp: Int32Array
  readonly touched: Int32Array
  private stampCounter = 0
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

  constructor(capacity: number) {
    const n = Math.max(1, capacity)
    this.capacity = n
    this.clusterWeight = new Float64Array(n)
    this.clusterCount = new Int32Array(n)
    this.unused = new Int32Array(n)
    this.queue = new Int32Array(n)
    this.stable = new Uint8Array(n)
    this.order = new Int32Array(n)
    this.acc = new Float64Array(n)
    this.stamp = new Int32Array(n)
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

  /** A fresh stamp value: every accumulator slot becomes stale at once. */
  nextStamp(): number {
    if (this.stampCounter === 0x7ffffff0) {
      this.stamp.fill(0)
      this.stampCounter = 0
    }
    return ++this.stampCounter
  }
}
