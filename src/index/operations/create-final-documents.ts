/**
 * create_final_documents (spec reference-index.md §5.3): adds to each document the ids of its text
 * units (text_units table order; [] when it has none) and puts the columns in the final order.
 */
import type { DocumentRow, InputDocumentRow } from '../../model/documents.js'
import type { BaseTextUnitRow } from '../../model/text-units.js'

export function createFinalDocuments(
  documents: ReadonlyArray<InputDocumentRow>,
  textUnits: ReadonlyArray<Pick<BaseTextUnitRow, 'id' | 'document_id'>>,
): DocumentRow[] {
  const unitsByDocument = new Map<string, string[]>()
  for (const unit of textUnits) {
    const ids = unitsByDocument.get(unit.document_id)
    if (ids === undefined) unitsByDocument.set(unit.document_id, [unit.id])
    else ids.push(unit.id)
  }
  return documents.map((doc) => ({
    id: doc.id,
    human_readable_id: doc.human_readable_id,
    title: doc.title,
    text: doc.text,
    text_unit_ids: [...(unitsByDocument.get(doc.id) ?? [])],
    creation_date: doc.creation_date,
    raw_data: doc.raw_data,
  }))
}
