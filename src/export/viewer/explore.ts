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
export function passesFilter(
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
export function edgeInFocus(graph: Graph, edge: string, state: Exploration, shown: ReadonlySet<string>): boolean {
  const [a, b] = graph.extremities(edge)
  const centre = (n: string) => n === state.selected || state.expanded.has(n)
  return (centre(a) || centre(b)) && shown.has(a) && shown.has(b)
}
