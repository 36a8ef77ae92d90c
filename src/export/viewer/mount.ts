/**
 * The graph viewer, mountable in any positioned element: the exported page mounts it on its body,
 * the web UI's graph tab in its own panel. Draws the precomputed layout with WebGL (sigma.js) and
 * wires the search box, node clicks, the details panel and the "neighbourhood only" view.
 * Everything shown comes from the data through textContent, never innerHTML.
 */
import Graph from 'graphology'
import Sigma from 'sigma'
import type { ViewerCommunity, ViewerData, ViewerNode } from '../viewer-data.js'
import { showDetails } from './details.js'
import { element } from './dom.js'
import { focusReducers, focusSet, NO_FILTER, type Filter } from './explore.js'
import { insideLabels, noLabels, type DrawnLabels } from './labels.js'
import { renderLegend } from './legend.js'
import { attachSearch } from './search.js'

export interface ViewerOptions {
  /** Called after the details panel of a selected node is drawn, to add to it (the web UI adds source passages). */
  onDetails?: (node: ViewerNode, panel: HTMLElement) => void
  /** Extra controls placed in the side panel under the title (the web UI's level picker). */
  controls?: HTMLElement[]
}

export interface MountedViewer {
  select(node: string | undefined): void
  /** Where a node is drawn on screen (page pixels). */
  position(node: string): { x: number; y: number }
  /** Nodes and edges drawn now (the neighbourhood view hides the rest). */
  visible(): { nodes: number; edges: number }
  setNeighbourhoodOnly(on: boolean): void
  /** Keeps only entities of a type and/or a community (the selected entity stays). */
  setFilter(filter: Filter): void
  /** The horizontal extents of the labels drawn in the last frame (all inside the canvas). */
  labels(): DrawnLabels
  /** Keeps (or stops keeping) an entity's neighbours in view while others are selected. */
  setExpanded(node: string, on: boolean): void
  kill(): void
}

/** Above this many relationships the whole graph is an unreadable grey mass: the neighbourhood view starts on. */
const HAIRBALL_EDGES = 2_000

export function mountViewer(host: HTMLElement, data: ViewerData, options: ViewerOptions = {}): MountedViewer {
  const graph = viewerGraph(data)
  const byKey = new Map(data.nodes.map((n) => [n.key, n]))
  const communities = new Map<number, ViewerCommunity>(data.communities.map((c) => [c.community, c]))
  const { container, side, details } = viewerPanels(host, data, options)
  const state = initialState(graph)
  let drawn = noLabels()
  const renderer = startRenderer(host, graph, container, {
    defaultDrawNodeLabel: insideLabels(() => drawn),
    ...focusReducers(graph, state),
  })
  const toggle = neighbourhoodToggle(side, state.neighbourhoodOnly, (on) => setNeighbourhoodOnly(on))

  function setNeighbourhoodOnly(on: boolean): void {
    state.neighbourhoodOnly = on
    toggle.checked = on
    renderer.refresh({ skipIndexation: true })
    if (state.selected !== undefined) focus(state.selected)
  }

  function select(node: string | undefined): void {
    state.selected = node
    state.neighbours = focusSet(graph, state)
    if (node === undefined) details.hidden = true
    else {
      showDetails(details, { node: byKey.get(node)!, graph, byKey, communities, data }, select)
      const expanded = state.expanded.has(node)
      details.querySelector('h2')?.after(expandButton(expanded, () => setExpanded(node, !expanded)))
      options.onDetails?.(byKey.get(node)!, details)
    }
    // The graph makes room for the panel, so the selected node is never drawn underneath it.
    host.classList.toggle('with-details', node !== undefined)
    renderer.resize()
    renderer.refresh({ skipIndexation: true })
    if (node !== undefined) focus(node)
  }

  /** Small graphs are legible whole, so the camera only pans; on big ones (or a neighbourhood) it also zooms in. */
  function focus(node: string): void {
    panTo(renderer, node, graph.order > 500 || state.neighbourhoodOnly)
  }

  function setExpanded(node: string, on: boolean): void {
    if (on) state.expanded.add(node)
    else state.expanded.delete(node)
    select(state.selected)
  }

  function setFilter(filter: Filter): void {
    state.filter = filter
    renderer.refresh({ skipIndexation: true })
  }

  renderer.on('beforeRender', () => {
    drawn = noLabels()
  })
  wireSelection(renderer, side, data, select)
  host.dataset.renderedNodes = String(graph.order)
  return {
    select,
    setNeighbourhoodOnly,
    setFilter,
    setExpanded,
    labels: () => ({ ...drawn }),
    position: (node) => screenPosition(renderer, graph, container, node),
    visible: () => visibleCounts(graph, renderer),
    kill: () => unmount(renderer, host, [container, side, details]),
  }
}

/** A click on a node, on the background or a search hit selects (or clears); the legend goes under the search. */
function wireSelection(
  renderer: Sigma,
  side: HTMLElement,
  data: ViewerData,
  select: (node: string | undefined) => void,
) {
  renderer.on('clickNode', ({ node }) => select(node))
  renderer.on('clickStage', () => select(undefined))
  attachSearch(
    side,
    data.nodes.map((n) => n.key),
    select,
  )
  renderLegend(side, data.communities)
}

function unmount(renderer: Sigma, host: HTMLElement, parts: readonly HTMLElement[]): void {
  renderer.kill()
  host.classList.remove('with-details')
  for (const part of parts) part.remove()
}

/** What the viewer shows: the selection, its neighbourhood, the expanded entities and the filter. */
function initialState(graph: Graph) {
  return {
    selected: undefined as string | undefined,
    /** The selected and expanded entities with their neighbours. */
    neighbours: new Set<string>(),
    expanded: new Set<string>(),
    filter: NO_FILTER,
    // On a hairball, the view starts with relationships hidden until an entity is chosen.
    neighbourhoodOnly: graph.size > HAIRBALL_EDGES,
  }
}

/** Where a node is drawn, in page pixels. */
function screenPosition(renderer: Sigma, graph: Graph, container: HTMLElement, node: string): { x: number; y: number } {
  const { x, y } = renderer.graphToViewport(graph.getNodeAttributes(node) as { x: number; y: number })
  const box = container.getBoundingClientRect()
  return { x: box.left + x, y: box.top + y }
}

/** The entities and relationships as a graphology graph, drawn at their precomputed positions. */
function viewerGraph(data: ViewerData): Graph {
  const graph = new Graph({ type: 'undirected', multi: true, allowSelfLoops: true })
  data.nodes.forEach((n) =>
    graph.addNode(n.key, {
      label: n.key,
      x: n.x,
      y: n.y,
      size: n.size,
      color: n.color,
      // Not `type`: sigma reads that attribute as the name of the program that draws the node.
      entityType: n.type,
      community: n.community,
    }),
  )
  data.edges.forEach(([s, t, weight], i) =>
    graph.addEdgeWithKey(String(i), data.nodes[s]!.key, data.nodes[t]!.key, { weight }),
  )
  return graph
}

/** The drawing area, the side panel (title, figures, the caller's controls) and the hidden details panel. */
function viewerPanels(host: HTMLElement, data: ViewerData, options: ViewerOptions) {
  const container = element('div', { id: 'graph' })
  const side = element('div', { id: 'side', className: 'panel' })
  side.append(element('h1', { textContent: data.title }))
  side.append(
    element('div', {
      id: 'stats',
      textContent: `${data.nodes.length} entities · ${data.edges.length} relationships · communities at level ${data.level}`,
    }),
    ...(options.controls ?? []),
  )
  const details = element('div', { id: 'details', className: 'panel', hidden: true })
  host.append(container, side, details)
  return { container, side, details }
}

/** sigma.js over the graph; without WebGL, a notice in the page (and on `host.dataset.error`), then the error. */
function startRenderer(
  host: HTMLElement,
  graph: Graph,
  container: HTMLElement,
  drawing: Partial<ConstructorParameters<typeof Sigma>[2]>,
): Sigma {
  const big = graph.order > 2_000
  try {
    return new Sigma(graph, container, {
      // Labels only for nodes drawn large enough: on a big graph they appear as the user zooms in.
      labelRenderedSizeThreshold: big ? 10 : 5,
      hideEdgesOnMove: graph.size > 20_000,
      defaultEdgeColor: '#d8d8d8',
      zIndex: true,
      ...drawing,
    })
  } catch (error) {
    host.append(
      element('div', { id: 'nowebgl', textContent: `This page needs WebGL to draw the graph (${String(error)}).` }),
    )
    host.dataset.error = String(error)
    throw error
  }
}

/** The "Neighbourhood only" checkbox of the side panel. */
function neighbourhoodToggle(side: HTMLElement, checked: boolean, onChange: (on: boolean) => void): HTMLInputElement {
  const toggle = element('input', { type: 'checkbox', id: 'neighbourhood-toggle', checked })
  side.append(
    element(
      'label',
      { id: 'neighbourhood-only', title: 'Hide everything but the selected entity and its neighbours' },
      [toggle, 'Neighbourhood only (relationships of the selected entity)'],
    ),
  )
  toggle.addEventListener('change', () => onChange(toggle.checked))
  return toggle
}

/** Nodes and edges the reducers draw now, counted with them: no second rule to drift from the picture. */
function visibleCounts(graph: Graph, renderer: Sigma): { nodes: number; edges: number } {
  const shown = (attrs: { hidden?: boolean }) => attrs.hidden !== true
  const settings = renderer.getSettings()
  const nodes = graph.filterNodes((n, attrs) => shown(settings.nodeReducer!(n, attrs as never))).length
  const edges = graph.filterEdges((e, attrs) => shown(settings.edgeReducer!(e, attrs as never))).length
  return { nodes, edges }
}

/** Moves the camera to a node, zooming in when asked. */
function panTo(renderer: Sigma, node: string, zoomIn: boolean): void {
  const position = renderer.getNodeDisplayData(node)
  const camera = renderer.getCamera()
  const ratio = zoomIn ? Math.min(camera.ratio, 0.3) : camera.ratio
  if (position !== undefined) void camera.animate({ x: position.x, y: position.y, ratio }, { duration: 400 })
}

/** "Keep neighbours" / "Collapse": the entity's neighbourhood stays in view while others are selected. */
function expandButton(on: boolean, onClick: () => void): HTMLElement {
  const button = element('button', {
    id: 'expand-toggle',
    className: 'expand',
    textContent: on ? 'Collapse its neighbours' : 'Expand: keep its neighbours in view',
    title: 'Keep this entity and its neighbours drawn while you select others',
  })
  button.addEventListener('click', onClick)
  return button
}
