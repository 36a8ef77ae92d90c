/**
 * What the viewer shows around a selection: the selected entity's neighbourhood, grown by the
 * neighbourhoods of entities the user expanded, and narrowed by an entity-type and a community
 * filter. Pure over the graph, so the reducers, the counts and the tests agree.
 */
import type Graph from 'graphology'

export interface Filter {
  /** Entity type to keep ('' = all). */
  type: string
  /** Community to keep (undefined = all). */
  community: number | undefined
}

export const NO_FILTER: Filter = { type: '', community: undefined }

export interface Exploration {
  selected: string | undefined
  /** Entities whose neighbours stay in view while others are selected. */
  expanded: ReadonlySet<string>
  filter: Filter
}

/** Entities the filter keeps; the selected one is always kept, so its details never point at nothing. */
function passesFilter(
  node: string,
  attributes: { entityType?: string; community?: number },
  state: Exploration,
): boolean {
  if (node === state.selected) return true
  if (state.filter.type !== '' && attributes.entityType !== state.filter.type) return false
  return state.filter.community === undefined || attributes.community === state.filter.community
}

/** The entities in focus: the selected and expanded ones with their neighbours (empty: nothing is in focus). */
export function focusSet(graph: Graph, state: Exploration): Set<string> {
  const centres = [...state.expanded, ...(state.selected === undefined ? [] : [state.selected])]
  const shown = new Set<string>()
  for (const centre of centres) {
    if (!graph.hasNode(centre)) continue
    shown.add(centre)
    for (const neighbour of graph.neighbors(centre)) shown.add(neighbour)
  }
  return shown
}

/** A relationship in focus: it touches a centre (the selected or an expanded entity) and both ends are in focus. */
function edgeInFocus(graph: Graph, edge: string, state: Exploration, shown: ReadonlySet<string>): boolean {
  const [a, b] = graph.extremities(edge)
  const centre = (n: string) => n === state.selected || state.expanded.has(n)
  return (centre(a) || centre(b)) && shown.has(a) && shown.has(b)
}

/** What the viewer keeps while it runs: the exploration, plus the neighbourhood view and the focus set. */
export interface ViewState extends Exploration {
  neighbourhoodOnly: boolean
  /** focusSet's result for the current selection and expansions. */
  neighbours: ReadonlySet<string>
}

type Display = Record<string, unknown>

/**
 * Sigma's node and edge reducers for the state: filtered entities hidden; with something in focus,
 * the selected entity highlighted, the focus labelled and the rest greyed (or hidden in the
 * neighbourhood view), and only the relationships in focus drawn.
 */
export function focusReducers(graph: Graph, state: ViewState) {
  return {
    nodeReducer: <A extends Display>(node: string, attrs: A): A => {
      if (!passesFilter(node, attrs, state)) return { ...attrs, hidden: true }
      if (state.neighbours.size === 0) return attrs
      if (node === state.selected) return { ...attrs, highlighted: true, zIndex: 2 }
      // Forced labels on a hub's hundred neighbours would only overlap; then the usual label rules apply.
      const labelled = state.neighbours.size <= (state.neighbourhoodOnly ? 80 : 40)
      if (state.neighbours.has(node)) return { ...attrs, forceLabel: labelled, zIndex: 1 }
      if (state.neighbourhoodOnly) return { ...attrs, hidden: true }
      return { ...attrs, color: '#e4e4e4', label: '', zIndex: 0 }
    },
    edgeReducer: <A extends Display>(edge: string, attrs: A): A => {
      const [a, b] = graph.extremities(edge)
      const filtered = ![a, b].every((n) => passesFilter(n, graph.getNodeAttributes(n), state))
      if (filtered) return { ...attrs, hidden: true }
      if (state.neighbours.size === 0) return state.neighbourhoodOnly ? { ...attrs, hidden: true } : attrs
      return edgeInFocus(graph, edge, state, state.neighbours)
        ? { ...attrs, color: 'rgba(60,60,60,0.5)', size: 1.5 }
        : { ...attrs, hidden: true }
    },
  }
}
