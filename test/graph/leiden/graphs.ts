// Test graphs and slow reference checks shared by the Leiden tests (not a test file itself).
import type { HierarchicalCluster, WeightedEdge } from '../../../src/graph/leiden/index.js'

/** mulberry32: seeded and independent of the code under test. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Planted partition: blocks of `block` nodes, average degree 2·edgesPerNode, mixing μ, weights 1–10. */
export function plantedPartition(
  n: number,
  seed: number,
  opts: { block?: number; mixing?: number; edgesPerNode?: number } = {},
): WeightedEdge[] {
  const { block = 40, mixing = 0.3, edgesPerNode = 4 } = opts
  const rand = seededRandom(seed)
  const edges: WeightedEdge[] = []
  while (edges.length < edgesPerNode * n) {
    const u = Math.floor(rand() * n)
    const v = rand() < mixing ? Math.floor(rand() * n) : Math.floor(u / block) * block + Math.floor(rand() * block)
    if (v >= n || v === u) continue
    edges.push([`v${u}`, `v${v}`, 1 + Math.floor(rand() * 10)])
  }
  return edges
}

/** Ring of r cliques K_k joined by single edges c{i}_0 -- c{i+1}_1. */
export function ringOfCliques(r: number, k: number): WeightedEdge[] {
  const edges: WeightedEdge[] = []
  for (let c = 0; c < r; c++) {
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) edges.push([`c${c}_${i}`, `c${c}_${j}`, 1])
    edges.push([`c${c}_0`, `c${(c + 1) % r}_1`, 1])
  }
  return edges
}

/** Undirected adjacency (first weight of a repeated pair wins, self-loops dropped), as the clustering sees it. */
export function adjacency(edges: ReadonlyArray<WeightedEdge>): Map<string, Map<string, number>> {
  const adj = new Map<string, Map<string, number>>()
  const row = (v: string): Map<string, number> => {
    let r = adj.get(v)
    if (!r) adj.set(v, (r = new Map()))
    return r
  }
  for (const [s, t, w] of edges) {
    row(s)
    row(t)
    if (s === t || row(s).has(t)) continue
    row(s).set(t, w)
    row(t).set(s, w)
  }
  return adj
}

/** Slow O(n²) modularity straight from the definition Q = 1/2m Σ_ij [A_ij − k_i k_j / 2m] δ(c_i, c_j). */
export function referenceModularity(
  edges: ReadonlyArray<WeightedEdge>,
  community: ReadonlyMap<string, number>,
  resolution = 1,
): number {
  const adj = adjacency(edges)
  const nodes = [...adj.keys()]
  const degree = new Map(nodes.map((v) => [v, [...(adj.get(v)?.values() ?? [])].reduce((a, b) => a + b, 0)]))
  const twoM = [...degree.values()].reduce((a, b) => a + b, 0)
  let q = 0
  for (const i of nodes) {
    for (const j of nodes) {
      if (community.get(i) !== community.get(j)) continue
      q += (adj.get(i)?.get(j) ?? 0) - (resolution * (degree.get(i) ?? 0) * (degree.get(j) ?? 0)) / twoM
    }
  }
  return q / twoM
}

/** True when the nodes induce a connected subgraph (BFS inside the set). */
export function isConnected(nodes: ReadonlyArray<string>, adj: Map<string, Map<string, number>>): boolean {
  if (nodes.length <= 1) return true
  const inside = new Set(nodes)
  const seen = new Set([nodes[0]])
  const stack = [nodes[0]]
  while (stack.length > 0) {
    const v = stack.pop() as string
    for (const u of adj.get(v)?.keys() ?? []) {
      if (inside.has(u) && !seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return seen.size === inside.size
}

/** Members of each cluster id. */
export function clusterMembers(entries: ReadonlyArray<HierarchicalCluster>): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const e of entries) {
    const list = out.get(e.cluster)
    if (list) list.push(e.node)
    else out.set(e.cluster, [e.node])
  }
  return out
}

/** node → cluster at one level (nodes of that level only). */
export function levelAssignment(entries: ReadonlyArray<HierarchicalCluster>, level: number): Map<string, number> {
  return new Map(entries.filter((e) => e.level === level).map((e) => [e.node, e.cluster]))
}

/** A partition as its member sets (each sorted and joined, then sorted): equal for equal partitions whatever the numbers. */
export function memberSets(assignment: ReadonlyMap<string, number>): string[] {
  const groups = new Map<number, string[]>()
  for (const [node, c] of assignment) {
    const list = groups.get(c)
    if (list) list.push(node)
    else groups.set(c, [node])
  }
  return [...groups.values()].map((g) => g.sort().join(',')).sort()
}

/** The member sets of one level of a clustering. */
export function levelPartition(entries: ReadonlyArray<HierarchicalCluster>, level: number): string[] {
  return memberSets(levelAssignment(entries, level))
}

/** Every pair of `members` joined by an edge of `weight`. */
export function cliqueEdges(members: readonly string[], weight = 1): WeightedEdge[] {
  const edges: WeightedEdge[] = []
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) edges.push([members[i]!, members[j]!, weight])
  return edges
}

/**
 * The projection tests' ring: five K5s k{c}_0…k{c}_4 joined by k{c}_0 – k{c+1}_1, plus k3_3 – k4_2
 * (an edge that, heavier before, tied k4_2 to clique 3).
 */
export function ringWithStray(): { edges: WeightedEdge[]; cliques: string[][] } {
  const cliques = [0, 1, 2, 3, 4].map((c) => Array.from({ length: 5 }, (_, i) => `k${c}_${i}`))
  const edges: WeightedEdge[] = [
    ...cliques.flatMap((members, c) => [...cliqueEdges(members), [`k${c}_0`, `k${(c + 1) % 5}_1`, 1] as WeightedEdge]),
    ['k3_3', 'k4_2', 1],
  ]
  return { edges, cliques }
}
