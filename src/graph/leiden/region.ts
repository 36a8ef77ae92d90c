/**
 * Leiden on the part of the network a change reached: the nodes of every community that is not one of
 * the given untouched groups, started from their current communities, while the untouched communities
 * stay exactly as they are.
 */
import type { FlatPartition } from './leiden.js'
import type { CsrNetwork } from './network.js'
import { startingMembership } from './seed.js'
import { SubnetworkBuilder } from './subnetwork.js'

/**
 * `run` gets the region's network with the whole network's degrees and total weight, so its
 * modularity is the whole network's (the fixed communities contribute a constant) and any partition
 * it returns (connected communities) is a partition of the region in the whole network. Returns the
 * new membership, compact, or the given one when every community is untouched.
 */
export function reclusterReached(
  g: CsrNetwork,
  membership: Int32Array,
  untouched: ReadonlyArray<Int32Array>,
  run: (region: CsrNetwork, start: Int32Array) => FlatPartition,
): FlatPartition {
  const n = g.nodeCount
  let count = 0
  for (const c of membership) if (c + 1 > count) count = c + 1
  const size = new Int32Array(count)
  for (const c of membership) size[c]++
  const fixed = new Uint8Array(count)
  for (const group of untouched) {
    const c = membership[group[0]]
    if (size[c] === group.length && group.every((v) => membership[v] === c)) fixed[c] = 1
  }
  const inRegion = Int32Array.from(membership, (c) => (fixed[c] === 1 ? 0 : 1))
  const members = Int32Array.from({ length: n }, (_, v) => v).filter((v) => inRegion[v] === 1)
  if (members.length === 0) return { membership, count }
  const sub = new SubnetworkBuilder(new Int32Array(n).fill(-1))
  sub.build(g, members, 0, members.length, inRegion, 1)
  if (sub.nodeCount === 0) return { membership, count }
  const view = sub.view()
  const l2g = sub.localToGlobal
  const region: CsrNetwork = {
    ...view,
    nodeWeights: Float64Array.from({ length: view.nodeCount }, (_, i) => g.nodeWeights[l2g[i]]),
    totalAdjacencyWeight: g.totalAdjacencyWeight,
    selfLoopWeight: g.selfLoopWeight,
  }
  const start = startingMembership(
    region,
    Int32Array.from({ length: view.nodeCount }, (_, i) => membership[l2g[i]]),
  )
  const result = run(region, start)
  const out = Int32Array.from(membership)
  for (let i = 0; i < view.nodeCount; i++) out[l2g[i]] = count + result.membership[i]
  return compactIds(out)
}

function compactIds(membership: Int32Array): FlatPartition {
  const ids = new Map<number, number>()
  const out = Int32Array.from(membership, (c) => {
    let id = ids.get(c)
    if (id === undefined) ids.set(c, (id = ids.size))
    return id
  })
  return { membership: out, count: ids.size }
}
