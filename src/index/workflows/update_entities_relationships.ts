/**
 * Workflow update_entities_relationships: records how the graph changed. The merge itself needs no
 * step of its own: extract_graph rebuilt entities and relationships from every remaining text unit
 * (answers of unchanged units reused), so descriptions, text_unit_ids, degrees and frequencies are
 * those of a full re-index.
 */
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { diffKeyedBy, diffSummary, sameStrings } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

// Only the columns compared: ids, ranks and degrees are not decoded.
const ENTITY_COLUMNS = pickColumns(ENTITIES, ['title', 'type', 'description', 'text_unit_ids'])
const RELATIONSHIP_COLUMNS = pickColumns(RELATIONSHIPS, ['source', 'target', 'description', 'weight', 'text_unit_ids'])

interface EntityFields {
  type: string | null
  description: string | null
  text_unit_ids: readonly string[]
}

interface RelationshipFields {
  description: string | null
  weight: number
  text_unit_ids: readonly string[]
}

/** Weights equal as JSON writes them (the comparison this replaces): NaN and the infinities all as null. */
function sameWeight(a: number, b: number): boolean {
  return a === b || (!Number.isFinite(a) && !Number.isFinite(b))
}

export const updateEntitiesRelationships = defineWorkflow({
  name: 'update_entities_relationships',
  reads: [ENTITIES.name, RELATIONSHIPS.name],
  writes: [],
  async run(ctx) {
    // Field by field: 100,001 entities and their relationships, in both generations, were each written
    // out as JSON to be compared.
    const entity = (a: EntityFields, b: EntityFields) =>
      a.type === b.type && a.description === b.description && sameStrings(a.text_unit_ids, b.text_unit_ids)
    const relationship = (a: RelationshipFields, b: RelationshipFields) =>
      a.description === b.description && sameWeight(a.weight, b.weight) && sameStrings(a.text_unit_ids, b.text_unit_ids)
    const entities = diffKeyedBy(
      await previousRows(ctx, ENTITY_COLUMNS),
      await currentRows(ctx, ENTITY_COLUMNS),
      (e) => e.title,
      entity,
    )
    const pair = (r: { source: string; target: string }) => `${r.source}\u0000${r.target}`
    const relationships = diffKeyedBy(
      await previousRows(ctx, RELATIONSHIP_COLUMNS),
      await currentRows(ctx, RELATIONSHIP_COLUMNS),
      pair,
      relationship,
    )
    return { summary: { ...diffSummary('entities', entities), ...diffSummary('relationships', relationships) } }
  },
})
