/**
 * The graph page's script (bundled with sigma.js and graphology by esbuild, inlined by html.ts):
 * draws the precomputed layout with WebGL, and wires the search box, node clicks and the details panel.
 * Everything shown comes from the embedded JSON through textContent, never innerHTML.
 */
import Graph from 'graphology'
import Sigma from 'sigma'
import { VIEWER_DATA_ID, type ViewerCommunity, type ViewerData } from '../viewer-data.js'
import { showDetails } from './details.js'
import { element } from './dom.js'
import { renderLegend } from './legend.js'
import { attachSearch } from './search.js'

const data = JSON.parse(document.getElementById(VIEWER_DATA_ID)!.textContent!) as ViewerData
const graph = new Graph({ type: 'undirected', multi: true, allowSelfLoops: true })
data.nodes.forEach((n) => graph.addNode(n.key, { label: n.key, x: n.x, y: n.y, size: n.size, color: n.color }))
data.edges.forEach(([s, t, weight], i) =>
  graph.addEdgeWithKey(String(i), data.nodes[s]!.key, data.nodes[t]!.key, { weight }),
)
const byKey = new Map(data.nodes.map((n) => [n.key, n]))
const communities = new Map<number, ViewerCommunity>(data.communities.map((c) => [c.community, c]))

document.title = data.title
const container = element('div', { id: 'graph' })
document.body.append(container)
const side = element('div', { id: 'side', className: 'panel' })
side.append(element('h1', { textContent: data.title }))
side.append(
  element('div', {
    id: 'stats',
    textContent: `${data.nodes.length} entities · ${data.edges.length} relationships · communities at level ${data.level}`,
  }),
)
document.body.append(side)
const details = element('div', { id: 'details', className: 'panel', hidden: true })
document.body.append(details)

const state: { selected: string | undefined; neighbours: Set<string> } = { selected: undefined, neighbours: new Set() }
const big = graph.order > 2_000
let renderer: Sigma
try {
  renderer = new Sigma(graph, container, {
    // Labels only for nodes drawn large enough: on a big graph they appear as the user zooms in.
    labelRenderedSizeThreshold: big ? 10 : 5,
    hideEdgesOnMove: graph.size > 20_000,
    defaultEdgeColor: '#d8d8d8',
    zIndex: true,
    nodeReducer: (node, attrs) => {
      if (state.selected === undefined) return attrs
      if (node === state.selected) return { ...attrs, highlighted: true, zIndex: 2 }
      // Forced labels on a hub's hundred neighbours would only overlap; then the usual label rules apply.
      if (state.neighbours.has(node)) return { ...attrs, forceLabel: state.neighbours.size <= 40, zIndex: 1 }
      return { ...attrs, color: '#e4e4e4', label: '', zIndex: 0 }
    },
    edgeReducer: (edge, attrs) => {
      if (state.selected === undefined) return attrs
      return graph.hasExtremity(edge, state.selected)
        ? { ...attrs, color: 'rgba(60,60,60,0.5)', size: 1.5 }
        : { ...attrs, hidden: true }
    },
  })
} catch (error) {
  document.body.append(
    element('div', { id: 'nowebgl', textContent: `This page needs WebGL to draw the graph (${String(error)}).` }),
  )
  document.body.dataset.error = String(error)
  throw error
}

function select(node: string | undefined): void {
  state.selected = node
  state.neighbours = new Set(node === undefined ? [] : graph.neighbors(node))
  if (node === undefined) details.hidden = true
  else showDetails(details, { node: byKey.get(node)!, graph, byKey, communities, data }, select)
  // The graph makes room for the panel, so the selected node is never drawn underneath it.
  document.body.classList.toggle('with-details', node !== undefined)
  renderer.resize()
  renderer.refresh({ skipIndexation: true })
  if (node === undefined) return
  // Small graphs are legible whole, so the camera only pans; on big ones it also zooms in to the neighbourhood.
  const position = renderer.getNodeDisplayData(node)
  const ratio = graph.order > 500 ? Math.min(renderer.getCamera().ratio, 0.3) : renderer.getCamera().ratio
  if (position !== undefined)
    void renderer.getCamera().animate({ x: position.x, y: position.y, ratio }, { duration: 400 })
}

renderer.on('clickNode', ({ node }) => select(node))
renderer.on('clickStage', () => select(undefined))
attachSearch(
  side,
  data.nodes.map((n) => n.key),
  select,
)
renderLegend(side, data.communities)
// A handle for scripts and tests: where a node is drawn on screen (page pixels), and selecting one.
Object.assign(window, {
  graphragViewer: {
    select,
    position(node: string): { x: number; y: number } {
      const { x, y } = renderer.graphToViewport(graph.getNodeAttributes(node) as { x: number; y: number })
      const box = container.getBoundingClientRect()
      return { x: box.left + x, y: box.top + y }
    },
  },
})
document.body.dataset.renderedNodes = String(graph.order)
document.body.dataset.ready = 'true'
