/**
 * The index as a graphology graph: entities are nodes keyed by title (the key relationships use),
 * relationships are undirected edges keyed by their id (parallel edges kept: the table may hold both
 * A→B and B→A), each carrying the attributes every export format writes.
 */
import { MultiUndirectedGraph } from 'graphology'
import { InputError } from '../errors.js'
import type { EntityRow, RelationshipRow } from '../model/index.js'
import type { Membership } from './communities.js'
import { colourCommunities, NO_COMMUNITY_COLOUR } from './palette.js'

interface NodeAttributes {
  label: string
  entity_id: string
  human_readable_id: number
  type: string
  description: string
  degree: number
  frequency: number
  /** Community at the chosen level (or the deepest level above it), -1 when none. */
  community: number
  report_title: string
  report_summary: string
  x: number
  y: number
  size: number
  color: string
  /** `community_<level>`: the community at exactly that level, -1 when none. */
  [communityAtLevel: `community_${number}`]: number
}

interface EdgeAttributes {
  description: string
  weight: number
  combined_degree: number
  human_readable_id: number
}

interface GraphAttributes {
  /** The level nodes are coloured by. */
  level: number
  levels: number[]
}

export type ExportGraph = MultiUndirectedGraph<NodeAttributes, EdgeAttributes, GraphAttributes>

export interface BuiltGraph {
  graph: ExportGraph
  /** Things a user should know (relationships left out because an endpoint is missing). */
  warnings: string[]
}

export function buildGraph(
  entities: readonly EntityRow[],
  relationships: readonly RelationshipRow[],
  membership: Membership,
  level: number,
): BuiltGraph {
  const graph: ExportGraph = new MultiUndirectedGraph({ allowSelfLoops: true })
  graph.replaceAttributes({ level, levels: [...membership.levels] })
  const colours = colourCommunities(entities.map((e) => membership.effective(e.id, level)))
  const maxDegree = Math.max(1, ...entities.map((e) => e.degree))
  for (const entity of entities) {
    if (graph.hasNode(entity.title))
      throw new InputError(`entities: two rows have the title ${JSON.stringify(entity.title)}`, {
        row: entity.human_readable_id,
      })
    const community = membership.effective(entity.id, level)
    const report = membership.reports.get(community)
    const attributes: NodeAttributes = {
      label: entity.title,
      entity_id: entity.id,
      human_readable_id: entity.human_readable_id,
      type: entity.type ?? '',
      description: entity.description ?? '',
      degree: entity.degree,
      frequency: entity.frequency,
      community,
      report_title: report?.title ?? '',
      report_summary: report?.summary ?? '',
      x: 0,
      y: 0,
      // Area grows with degree, so hubs stand out without hiding their neighbours.
      size: Number((2 + 10 * Math.sqrt(entity.degree / maxDegree)).toFixed(3)),
      color: colours.get(community) ?? NO_COMMUNITY_COLOUR,
    }
    for (const l of membership.levels) attributes[`community_${l}`] = membership.at(entity.id, l)
    graph.addNode(entity.title, attributes)
  }
  return { graph, warnings: addEdges(graph, relationships) }
}

function addEdges(graph: ExportGraph, relationships: readonly RelationshipRow[]): string[] {
  const missing: string[] = []
  for (const r of relationships) {
    if (!graph.hasNode(r.source) || !graph.hasNode(r.target)) {
      missing.push(r.id)
      continue
    }
    graph.addEdgeWithKey(r.id, r.source, r.target, {
      description: r.description ?? '',
      weight: r.weight,
      combined_degree: r.combined_degree,
      human_readable_id: r.human_readable_id,
    })
  }
  if (missing.length === 0) return []
  return [
    `${missing.length} relationship(s) left out because an endpoint is not in the entities table (first: ${missing[0]})`,
  ]
}
