/**
 * The blocks of the seed design's /diagnostics, from our settings and index: `feature_flags`,
 * `noise_control`, `relation_weights` and `entity_aliases` (counts and the entities with the most
 * aliases). docs/seeds.md maps each flag to the setting behind it.
 */
import type { Settings } from '../config/index.js'
import { ENTITY_ALIASES } from '../model/index.js'
import { ParquetTableStore } from '../storage/index.js'

export interface SeedDiagnostics {
  feature_flags: Record<string, boolean>
  noise_control: Record<string, number | boolean | null>
  relation_weights: Record<string, number>
  entity_aliases: {
    total_entities: number | null
    with_aliases: number
    ratio: number | null
    sample_top5: Array<{ name: string; aliases: string[]; alias_count: number }>
  } | null
}

const SAMPLE_SIZE = 5
const ALIASES_SHOWN = 5

export async function seedDiagnostics(
  settings: Settings,
  dir: string,
  totalEntities: number | null,
): Promise<SeedDiagnostics> {
  const h = settings.hybrid_search
  return {
    feature_flags: {
      rerank_enabled: rerankEnabled(settings),
      vector_enabled: h.use_vector,
      bm25_enabled: h.use_bm25,
      graph_enabled: h.use_graph,
      graph_rank_enabled: h.use_degree,
      hash_incremental_enabled: settings.server.ingest_incremental,
      entity_normalize_enabled: settings.entity_resolution.normalize_names,
      relation_extraction_enabled: settings.chunk_graph.llm_edges,
    },
    noise_control: {
      entity_min_length: settings.entity_resolution.min_name_length,
      drop_noise: settings.entity_resolution.drop_noise,
      min_node_freq: settings.prune_graph.min_node_freq,
      // The design's window-edge pruning: null while co-occurrence edges are off (chunk_graph.cooccurrence_edges).
      cooccur_min_count: settings.chunk_graph.cooccurrence_edges ? settings.chunk_graph.cooccurrence_min_count : null,
    },
    relation_weights: { ...h.edge_weights },
    entity_aliases: await aliasSummary(dir, totalEntities),
  }
}

/** The rerank stage (the top-level `rerank` section). */
function rerankEnabled(settings: Settings): boolean {
  return settings.rerank.enabled
}

async function aliasSummary(dir: string, totalEntities: number | null): Promise<SeedDiagnostics['entity_aliases']> {
  const store = new ParquetTableStore(dir)
  if (!(await store.has(ENTITY_ALIASES.name))) return null
  const byTitle = new Map<string, string[]>()
  for (const row of await store.read(ENTITY_ALIASES))
    byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row.alias])
  const sample = [...byTitle]
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, SAMPLE_SIZE)
    .map(([name, aliases]) => ({
      name,
      aliases: [...aliases].sort().slice(0, ALIASES_SHOWN),
      alias_count: aliases.length,
    }))
  return {
    total_entities: totalEntities,
    with_aliases: byTitle.size,
    ratio:
      totalEntities === null || totalEntities === 0
        ? null
        : Math.round((byTitle.size / totalEntities) * 10_000) / 10_000,
    sample_top5: sample,
  }
}
