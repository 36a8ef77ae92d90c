/**
 * Keys of the extract_graph section from the seed designs: the entity-extraction switch (000's
 * DISABLE_ENTITY_EXTRACT) and the per-chunk caps (001's GRAPHRAG_MAX_ENTITIES / _RELATIONSHIPS).
 */
import { bool, int, num } from '../fields.js'

export const extractionSeedKeys = {
  enabled: bool(
    true,
    'Extract entities at all (both methods). false indexes text units, embeddings and the chunk graph only: no entities, relationships, claims, communities or reports; basic, graph and hybrid search still answer.',
  ),
  max_entities_per_chunk: int(
    50,
    'Distinct entities kept per text unit, those its records name most often first (0 = no cap).',
    { min: 0, max: 1_000_000 },
  ),
  max_relationships_per_chunk: int(50, 'Relationships kept per text unit, highest weight first (0 = no cap).', {
    min: 0,
    max: 1_000_000,
  }),
  extraction_results: bool(
    false,
    'Also write extraction_results.json in the output folder: per text unit, the entities and relationships kept after the caps, before titles are merged (the seed design writes it always; off by default, as it repeats every record of the index).',
  ),
  discovered_types: bool(
    false,
    "Also write discovered_types.json in the output folder: the entity types of the extraction, counted per document and consolidated as the seed design does (stratified: each document's top types in turn).",
  ),
  discovered_types_max: int(15, "Types kept in discovered_types.json at most (the seed design's 15).", {
    min: 1,
    max: 10_000,
  }),
  discovered_types_min_share: num(
    0.1,
    "Share of a document's entities a type needs to be kept in discovered_types.json (the seed design's 10 %).",
    { min: 0, max: 1 },
  ),
}
