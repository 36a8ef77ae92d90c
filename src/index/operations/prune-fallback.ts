/**
 * When prune_graph would leave no entity or no relationship (small CSV/JSON corpora, where each phrase
 * occurs in one row only), the unpruned graph is kept; this says why, and which prune_graph settings,
 * relaxed one at a time, would keep part of the graph.
 */
import { pruneGraph, type PruneGraphOptions, type PrunableEntity, type PrunableRelationship } from './prune-graph.js'

/** The most lenient value of each setting: pruning with it removes nothing for that rule. */
const LENIENT: { [K in keyof PruneGraphOptions]: PruneGraphOptions[K] } = {
  min_node_freq: 1,
  max_node_freq_std: null,
  min_node_degree: 0,
  max_node_degree_std: null,
  min_edge_weight_pct: 0,
  remove_ego_nodes: false,
  lcc_only: false,
}

export function emptyPruneWarning(
  entities: readonly PrunableEntity[],
  relationships: readonly PrunableRelationship[],
  options: PruneGraphOptions,
  pruned: { entities: number; relationships: number },
): string {
  const hints: string[] = []
  for (const key of Object.keys(LENIENT) as (keyof PruneGraphOptions)[]) {
    if (options[key] === LENIENT[key] || (key === 'min_node_freq' && options.min_node_freq < 1)) continue
    const out = pruneGraph(entities, relationships, { ...options, [key]: LENIENT[key] })
    if (out.entities.length > 0 && out.relationships.length > 0) {
      hints.push(
        `prune_graph.${key}: ${String(LENIENT[key])} (now ${String(options[key])}) keeps ${out.entities.length} entities and ${out.relationships.length} relationships`,
      )
    }
  }
  const advice =
    hints.length > 0
      ? `relax ${hints.join('; or ')}`
      : 'no single prune_graph setting helps; relax several (min_node_freq, min_node_degree, min_edge_weight_pct)'
  return (
    `prune_graph would leave ${pruned.entities} of ${entities.length} entities and ${pruned.relationships} of ${relationships.length} relationships, ` +
    `so the graph is kept unpruned; to prune, ${advice}`
  )
}
