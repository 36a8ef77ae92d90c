/**
 * The walk of graph search over chunk edges, breadth first from the vector seeds. A seed scores
 * vector_weight × similarity + graph_weight × 1.0; a unit first reached at hop h scores
 * graph_weight × edge weight × hop_decay[h] through the best edge of that hop. A unit is never
 * revisited: once reached (or seeded) its score and graph context are final.
 */

export interface WalkEdge {
  source: string
  target: string
  relation: string
  weight: number
  description: string
}

export interface WalkSeed {
  id: string
  /** Cosine similarity to the question. */
  similarity: number
}

export interface WalkOptions {
  maxHops: number
  bidirectional: boolean
  /** Relations followed; null = all. */
  relationFilter: readonly string[] | null
  /** Edges whose weight × hop decay is below this are not followed. */
  minTraversalScore: number
  vectorWeight: number
  graphWeight: number
  /** Index 0 = seeds; hops past the end use the last value. */
  hopDecay: readonly number[]
}

/** How a unit was reached: the unit it came from, over which edge, in which direction. */
interface GraphContext {
  from: string
  relation: string
  description: string
  weight: number
  /** `incoming`: the edge points at `from` and was followed backwards (bidirectional walks). */
  direction: 'outgoing' | 'incoming'
}

export interface WalkResult {
  id: string
  score: number
  hop: number
  /** Absent for seeds. */
  via?: GraphContext
}

interface Step {
  to: string
  edge: WalkEdge
  direction: GraphContext['direction']
}

function hopDecay(decay: readonly number[], hop: number): number {
  return decay[Math.min(hop, decay.length - 1)] ?? 1
}

/** Every seed and reached unit, best score first (ties: fewer hops, then the order reached). */
export function walkChunkGraph(
  seeds: readonly WalkSeed[],
  edges: readonly WalkEdge[],
  options: WalkOptions,
): WalkResult[] {
  const steps = adjacency(edges, options)
  const found = new Map<string, WalkResult>()
  for (const seed of seeds) {
    if (!found.has(seed.id))
      found.set(seed.id, { id: seed.id, score: options.vectorWeight * seed.similarity + options.graphWeight, hop: 0 })
  }
  let frontier = [...found.values()]
  for (let hop = 1; hop <= options.maxHops && frontier.length > 0; hop++) {
    const decay = hopDecay(options.hopDecay, hop)
    const reached = new Map<string, WalkResult>()
    for (const unit of [...frontier].sort((a, b) => b.score - a.score)) {
      for (const step of steps.get(unit.id) ?? []) {
        const traversal = step.edge.weight * decay
        if (traversal < options.minTraversalScore || found.has(step.to)) continue
        const score = options.graphWeight * traversal
        const best = reached.get(step.to)
        if (best !== undefined && best.score >= score) continue
        const { relation, description, weight } = step.edge
        reached.set(step.to, {
          id: step.to,
          score,
          hop,
          via: { from: unit.id, relation, description, weight, direction: step.direction },
        })
      }
    }
    for (const [id, result] of reached) found.set(id, result)
    frontier = [...reached.values()]
  }
  return [...found.values()].sort((a, b) => b.score - a.score || a.hop - b.hop)
}

/** Followable steps by unit: outgoing edges, and incoming ones too when bidirectional; filtered by relation. */
function adjacency(edges: readonly WalkEdge[], options: WalkOptions): Map<string, Step[]> {
  const steps = new Map<string, Step[]>()
  const add = (from: string, step: Step) => {
    const list = steps.get(from)
    if (list === undefined) steps.set(from, [step])
    else list.push(step)
  }
  const allowed = options.relationFilter === null ? undefined : new Set(options.relationFilter)
  for (const edge of edges) {
    if (allowed !== undefined && !allowed.has(edge.relation)) continue
    if (edge.source === edge.target) continue
    add(edge.source, { to: edge.target, edge, direction: 'outgoing' })
    if (options.bidirectional) add(edge.target, { to: edge.source, edge, direction: 'incoming' })
  }
  return steps
}
