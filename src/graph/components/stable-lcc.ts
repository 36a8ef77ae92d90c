/**
 * Connected components by union-find and GraphRAG's "stable largest connected component"
 * (graphrag/graphs/stable_lcc.py semantics, spec reference-index.md §5.9 step 2): normalise names,
 * keep edges inside the largest component, orient source ≤ target, drop repeated pairs (first
 * kept) and sort by (source, target) in code-point order.
 */
import { compareCodePoints, normalizeNodeName } from '../../text/names.js'
import { nameNumbering } from '../numbering.js'

export interface NamedEdge {
  readonly source: string
  readonly target: string
}

/**
 * Components as node lists, largest first. Equal sizes keep discovery order: nodes are numbered
 * "all sources in row order, then all targets", and a component ranks by its first-numbered node.
 */
function connectedComponents(edges: ReadonlyArray<NamedEdge>): string[][] {
  const { names, idOf } = nameNumbering()
  for (const e of edges) idOf(e.source)
  for (const e of edges) idOf(e.target)
  const parent = Int32Array.from({ length: names.length }, (_, i) => i)
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]]
      x = parent[x]
    }
    return x
  }
  for (const e of edges) {
    const a = find(idOf(e.source))
    const b = find(idOf(e.target))
    if (a !== b) parent[a] = b
  }
  const groups = new Map<number, string[]>()
  for (let v = 0; v < names.length; v++) {
    const root = find(v)
    const group = groups.get(root)
    if (group) group.push(names[v])
    else groups.set(root, [names[v]])
  }
  // Array.prototype.sort is stable, so ties keep the order of first discovery.
  return [...groups.values()].sort((a, b) => b.length - a.length)
}

/** Node names of the largest component (empty for no edges). */
export function largestConnectedComponent(edges: ReadonlyArray<NamedEdge>): Set<string> {
  return new Set(connectedComponents(edges)[0] ?? [])
}

/** Copies of the edges restricted to the stable LCC, with normalised names, oriented and sorted. */
export function stableLargestConnectedComponent<E extends NamedEdge>(edges: ReadonlyArray<E>): E[] {
  if (edges.length === 0) return []
  const normalised = edges.map((e) => ({
    ...e,
    source: normalizeNodeName(e.source),
    target: normalizeNodeName(e.target),
  }))
  const keep = largestConnectedComponent(normalised)
  const seen = new Set<string>()
  const out: E[] = []
  for (const e of normalised) {
    if (!keep.has(e.source) || !keep.has(e.target)) continue
    const swap = compareCodePoints(e.source, e.target) > 0
    const oriented = swap ? { ...e, source: e.target, target: e.source } : e
    const key = `${oriented.source}\u0000${oriented.target}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(oriented)
  }
  return out.sort((a, b) => compareCodePoints(a.source, b.source) || compareCodePoints(a.target, b.target))
}
