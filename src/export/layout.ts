/**
 * Force-directed positions computed once at export time (ForceAtlas2, Jacomy et al. 2014), so the
 * page only draws. The start is a golden-angle spiral with each community's nodes next to each
 * other, which is deterministic (no random start) and lets FA2 settle in fewer iterations.
 */
import forceAtlas2Module from 'graphology-layout-forceatlas2'
import type { ExportGraph } from './build-graph.js'

// A CommonJS package whose types declare an ES default export: Node hands over module.exports itself.
const forceAtlas2 = forceAtlas2Module as unknown as typeof forceAtlas2Module.default

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5))

/** Fewer iterations on big graphs: each costs O(n log n) with Barnes-Hut, and big graphs settle visibly sooner. */
function layoutIterations(order: number): number {
  if (order <= 1_000) return 500
  if (order <= 5_000) return 200
  // ~0.07 s of CPU per iteration at 10k nodes and 29k edges (npm run bench:export).
  if (order <= 20_000) return 100
  return 50
}

export function assignLayout(graph: ExportGraph, iterations = layoutIterations(graph.order)): void {
  placeOnSpiral(graph)
  if (graph.order < 2) return
  const weightScale = meanPositiveWeight(graph)
  forceAtlas2.assign(graph, {
    iterations,
    settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: graph.order > 500 },
    // Weights differ by orders of magnitude between methods (PMI ~1e-4, LLM counts ~1-50):
    // normalised, they shape the layout the same way; weights ≤ 0 attract nothing.
    getEdgeWeight: (_edge, attributes) => Math.max(0, attributes.weight) / weightScale,
  })
  roundPositions(graph)
}

function placeOnSpiral(graph: ExportGraph): void {
  const nodes = graph.nodes().sort((a, b) => {
    const ca = graph.getNodeAttribute(a, 'community')
    const cb = graph.getNodeAttribute(b, 'community')
    return (
      ca - cb ||
      graph.getNodeAttribute(b, 'degree') - graph.getNodeAttribute(a, 'degree') ||
      (a < b ? -1 : a > b ? 1 : 0)
    )
  })
  nodes.forEach((node, i) => {
    const radius = 10 * Math.sqrt(i + 0.5)
    graph.mergeNodeAttributes(node, { x: radius * Math.cos(i * GOLDEN_ANGLE), y: radius * Math.sin(i * GOLDEN_ANGLE) })
  })
}

function meanPositiveWeight(graph: ExportGraph): number {
  let sum = 0
  let count = 0
  graph.forEachEdge((_edge, attributes) => {
    if (attributes.weight > 0) {
      sum += attributes.weight
      count++
    }
  })
  return count === 0 ? 1 : sum / count
}

/** Six significant decimals are far below a pixel and keep the files small and stable to diff. */
function roundPositions(graph: ExportGraph): void {
  graph.updateEachNodeAttributes(
    (_node, attributes) => ({ ...attributes, x: round(attributes.x), y: round(attributes.y) }),
    { attributes: ['x', 'y'] },
  )
}

function round(value: number): number {
  return Number(value.toFixed(3))
}
