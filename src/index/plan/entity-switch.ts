/**
 * extract_graph.enabled: false (seed design 000's DISABLE_ENTITY_EXTRACT) takes the workflows that
 * extract entities or build on them out of the method's list, leaving text units, documents,
 * embeddings and the chunk graph. Their readers cope with the missing tables (create_final_text_units
 * writes units without entity ids; generate_text_embeddings skips the entity and report texts).
 */
import { ConfigError } from '../../errors.js'
import type { Settings } from '../../config/schema.js'
import type { WorkflowName } from '../workflows/index.js'

const ENTITY_WORKFLOWS: ReadonlySet<WorkflowName> = new Set<WorkflowName>([
  'extract_graph',
  'extract_graph_nlp',
  'prune_graph',
  'finalize_graph',
  'extract_covariates',
  'create_communities',
  'create_community_reports',
  'create_community_reports_text',
])

/** The method's list without the entity workflows when entity extraction is off. */
export function applyEntitySwitch(settings: Settings, names: readonly WorkflowName[]): WorkflowName[] {
  return settings.extract_graph.enabled ? [...names] : names.filter((n) => !ENTITY_WORKFLOWS.has(n))
}

/** An update merges entities, communities and reports with the previous index: it needs them. */
export function requireEntitiesForUpdate(settings: Settings): void {
  if (!settings.extract_graph.enabled) {
    throw new ConfigError(
      'extract_graph.enabled: false indexes without entities, which `graphrag update` merges; run `graphrag index` again instead',
      { keyPath: 'extract_graph.enabled' },
    )
  }
}
