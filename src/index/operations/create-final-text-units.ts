/**
 * create_final_text_units (spec reference-index.md §5.10): adds to each text unit the ids of the
 * entities, relationships and covariates that cite it, and a running human_readable_id.
 */
import type { CovariateRow } from '../../model/covariates.js'
import type { EntityRow } from '../../model/entities.js'
import type { RelationshipRow } from '../../model/relationships.js'
import type { BaseTextUnitRow, TextUnitRow } from '../../model/text-units.js'
import { columnOf, type TableColumns } from '../../storage/table-columns.js'

type Cited = Pick<EntityRow | RelationshipRow, 'id' | 'text_unit_ids'>

/** The citing rows, or their `id` and `text_unit_ids` read as columns (readColumns: no row objects). */
type CitingTable = ReadonlyArray<Cited> | TableColumns

/** `covariates` is undefined when claims are disabled or the table does not exist. */
export function createFinalTextUnits(
  textUnits: ReadonlyArray<BaseTextUnitRow>,
  entities: CitingTable,
  relationships: CitingTable,
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
function citations(rows: CitingTable): Map<string, string[]> {
  if (!Array.isArray(rows)) return columnCitations(rows as TableColumns)
  const out = new Map<string, string[]>()
  for (const row of rows as ReadonlyArray<Cited>) for (const unit of row.text_unit_ids) append(out, unit, row.id)
  return out
}

/**
 * citations of the columns: the row of each list item grouped by the item's code with one counting
 * sort (rows in table order within a code), then one list of ids per cited unit.
 */
function columnCitations(table: TableColumns): Map<string, string[]> {
  const ids = columnOf(table, 'id', 'string').codes
  const { offsets, codes } = columnOf(table, 'text_unit_ids', 'list<string>')
  const start = new Int32Array(table.values.length + 1)
  for (const code of codes) start[code + 1]++
  for (let c = 0; c < table.values.length; c++) start[c + 1] += start[c]
  const fill = start.slice(0, table.values.length)
  const rowOf = new Int32Array(codes.length)
  for (let i = 0; i < table.length; i++) for (let k = offsets[i]; k < offsets[i + 1]; k++) rowOf[fill[codes[k]]++] = i
  const out = new Map<string, string[]>()
  for (let c = 0; c < table.values.length; c++) {
    if (start[c] === start[c + 1]) continue
    const citing = Array.from(rowOf.subarray(start[c], start[c + 1]), (i) => table.values[ids[i]] as string)
    out.set(table.values[c] as string, citing)
  }
  return out
}

function append(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
