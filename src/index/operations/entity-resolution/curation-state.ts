/** Whether curation.yaml changed since an index was built (its curation_rules table). */
import type { Settings } from '../../../config/schema.js'
import { CURATION_RULES } from '../../../model/curation-rules.js'
import type { TableStore } from '../../../storage/table-store.js'
import { type CurationRule, curationPath, readCurationRules } from '../../../config/curation-file.js'

/** The rows recording `rules` in an index. */
export const curationRows = (rules: readonly CurationRule[]) => rules.map((rule) => ({ rule: JSON.stringify(rule) }))

/** True when the project's rules differ from those `index` was built with (an index without the table had none). */
export async function curationChanged(index: TableStore, settings: Settings): Promise<boolean> {
  const file = curationPath(settings.root, settings.entity_resolution.curation_file)
  const now = curationRows(await readCurationRules(file)).map((r) => r.rule)
  const before = (await index.has(CURATION_RULES.name)) ? (await index.read(CURATION_RULES)).map((r) => r.rule) : []
  return now.length !== before.length || now.some((rule, i) => rule !== before[i])
}
