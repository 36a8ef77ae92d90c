/** An update's estimate (its dry run, and stats.json after it): reads the previous index's tables that measure which communities the change reaches. */
import { COMMUNITIES } from '../../model/communities.js'
import { ENTITIES } from '../../model/entities.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { pickColumns } from '../../model/schema.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { measureUpdateReach, type UpdateReach } from '../operations/update-reach.js'

/** The measured reach, or the tables whose absence leaves the estimate to today's guess from the changed chunks. */
export type UpdateReports = { reach: UpdateReach } | { missing: string[] }

/** From an update's plan: the previous index, its document ids (planUpdate read them), the replaced ones and the new ones. */
export async function measureUpdateReports(plan: {
  indexDir: string
  previousDocuments: readonly string[]
  replaced: readonly string[]
  changes: { added: readonly string[] }
}): Promise<UpdateReports> {
  const store = new ParquetTableStore(plan.indexDir)
  const tables = [TEXT_UNITS, ENTITIES, COMMUNITIES] as const
  const missing: string[] = []
  for (const table of tables) if (!(await store.has(table.name))) missing.push(table.name)
  if (missing.length > 0) return { missing }
  const reach = measureUpdateReach(
    {
      documents: plan.previousDocuments.map((id) => ({ id })),
      // The columns the reach needs (ReachTables): texts, descriptions and reports are not decoded.
      textUnits: await store.read(pickColumns(TEXT_UNITS, ['id', 'document_id', 'n_tokens'])),
      entities: await store.read(pickColumns(ENTITIES, ['id', 'text_unit_ids'])),
      communities: await store.read(pickColumns(COMMUNITIES, ['entity_ids'])),
    },
    plan.replaced,
    plan.changes.added.length,
  )
  return { reach }
}
