/** Update dry run: reads the previous index's tables that measure which communities the change reaches. */
import { COMMUNITIES } from '../../model/communities.js'
import { DOCUMENTS } from '../../model/documents.js'
import { ENTITIES } from '../../model/entities.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { measureUpdateReach, type UpdateReach } from '../operations/update-reach.js'

/** The measured reach, or the tables whose absence leaves the estimate to today's guess from the changed chunks. */
export type UpdateReports = { reach: UpdateReach } | { missing: string[] }

/** `replaced`: the previous ids of the edited and deleted documents. */
export async function measureUpdateReports(
  indexDir: string,
  replaced: readonly string[],
  newDocuments: number,
): Promise<UpdateReports> {
  const store = new ParquetTableStore(indexDir)
  const tables = [DOCUMENTS, TEXT_UNITS, ENTITIES, COMMUNITIES] as const
  const missing: string[] = []
  for (const table of tables) if (!(await store.has(table.name))) missing.push(table.name)
  if (missing.length > 0) return { missing }
  const reach = measureUpdateReach(
    {
      documents: await store.read(DOCUMENTS),
      textUnits: await store.read(TEXT_UNITS),
      entities: await store.read(ENTITIES),
      communities: await store.read(COMMUNITIES),
    },
    replaced,
    newDocuments,
  )
  return { reach }
}
