/**
 * Settings YAML that turns entity resolution off (name merging, noise control), for tests that
 * compare entities with Microsoft GraphRAG's, which merges by exact title only.
 */
export const EXACT_TITLES = 'entity_resolution:\n  normalize_names: false\n  drop_noise: false\n'
