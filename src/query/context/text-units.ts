/**
 * The Sources section: text units of the selected entities, in entity order, and for each entity
 * the units that carry more of its relationships first. Ids shown are the units'
 * human_readable_id (stable across reorderings), not row positions.
 */
import type { EntityRow, TextUnitRow } from '../../model/index.js'
import type { IndexRelationship } from '../load-index.js'
import { fillRows, renderRow, renderTable } from './table-format.js'

const SOURCE_HEADER = ['id', 'text'] as const

export function rankTextUnits(
  selected: readonly EntityRow[],
  textUnits: ReadonlyMap<string, TextUnitRow>,
  relationships: readonly IndexRelationship[],
): TextUnitRow[] {
  const taken = new Set<string>()
  const ranked: { unit: TextUnitRow; entity: number; relCount: number }[] = []
  selected.forEach((entity, index) => {
    const ownIds = new Set(
      relationships.filter((r) => r.source === entity.title || r.target === entity.title).map((r) => r.id),
    )
    for (const id of entity.text_unit_ids ?? []) {
      const unit = textUnits.get(id)
      if (unit === undefined || taken.has(id)) continue
      taken.add(id)
      // The unit's own relationship_ids, as the reference counts them (it reads relationships'
      // text_unit_ids only where a unit has none at all, which this table's required column rules out).
      const relCount = unit.relationship_ids.filter((r) => ownIds.has(r)).length
      ranked.push({ unit, entity: index, relCount })
    }
  })
  ranked.sort((a, b) => a.entity - b.entity || b.relCount - a.relCount)
  return ranked.map((r) => r.unit)
}

export function sourceRecord(u: TextUnitRow): Record<string, string | number> {
  return { id: u.human_readable_id, text: u.text }
}

/** The Sources table; the header is kept even when no unit fits, as the section is always there. */
export function sourceTable(
  units: readonly TextUnitRow[],
  budget: number,
  countTokens: (text: string) => number,
): { text: string; kept: TextUnitRow[]; tokens: number } {
  const head = renderTable('Sources', SOURCE_HEADER, [])
  const headTokens = countTokens(head)
  const fill = fillRows(units, (u) => renderRow(Object.values(sourceRecord(u))), budget - headTokens, countTokens)
  return { text: head + fill.rows.join(''), kept: fill.kept, tokens: headTokens + fill.tokens }
}
