/**
 * create_final_text_units (spec reference-index.md §5.10): adds to each text unit the ids of the
 * entities, relationships and covariates that cite it, and a running human_readable_id.
 */
import type { CovariateRow } from '../../model/covariates.js'
import type { EntityRow } from '../../model/entities.js'
import type { RelationshipRow } from '../../model/relationships.js'
import type { BaseTextUnitRow, TextUnitRow } from '../../model/text-units.js'

type Cited = Pick<EntityRow | RelationshipRow, 'id' | 'text_unit_ids'>

/** `covariates` is undefined when claims are disabled or the table does not exist. */
export function createFinalTextUnits(
  textUnits: ReadonlyArray<BaseTextUnitRow>,
  entities: ReadonlyArray<Cited>,
  relationships: ReadonlyArray<Cited>,
  covariates: ReadonlyArray<Pick<CovariateRow, 'id' | 'text_unit_id'>> | undefined,
): TextUnitRow[] {
  const entityIds = citations(entities)
  const relationshipIds = citations(relationships)
  const covariateIds = new Map<string, string[]>()
  for (const c of covariates ?? []) append(covariateIds, c.text_unit_id, c.id)
  return textUnits.map((t, i) => ({
    id: t.id,
    human_readable_id: i,
    text: t.text,
    n_tokens: t.n_tokens,
    document_id: t.document_id,
    entity_ids: entityIds.get(t.id) ?? [],
    relationship_ids: relationshipIds.get(t.id) ?? [],
    covariate_ids: covariateIds.get(t.id) ?? [],
  }))
}

/** text unit id → ids of the rows citing it, in table order (no deduplication, as the reference). */
function citations(rows: ReadonlyArray<Cited>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const row of rows) for (const unit of row.text_unit_ids) append(out, unit, row.id)
  return out
}

function append(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
