/**
 * Editing the graph from outside (CLI `graphrag curate`, serve's /graph routes): each edit becomes a
 * rule in curation.yaml with who/when in its audit log, applied by the next index or update. Names
 * are matched after normalisation against the current index and written as its titles.
 */
import type { Settings } from '../../config/schema.js'
import { InputError } from '../../errors.js'
import { ENTITIES } from '../../model/entities.js'
import { ENTITY_ALIASES } from '../../model/entity-aliases.js'
import { pickColumns } from '../../model/schema.js'
import { readableIndexDir } from '../../storage/generations.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { entityKey } from '../../text/entity-key.js'
import { appendCurationRule, type CurationRule, curationPath, readCurationRules } from '../../config/curation-file.js'

export type { CurationRule } from '../../config/curation-file.js'

const TITLES = pickColumns(ENTITIES, ['title'])

const curationFileOf = (settings: Settings) => curationPath(settings.root, settings.entity_resolution.curation_file)

/** Entity title for a user's name: exact, alias, or equal key; undefined when the index has none. */
type TitleLookup = (name: string) => string | undefined

/** Looks names up in the index; with no index yet every name is taken as written. */
async function titleLookup(settings: Settings): Promise<TitleLookup | undefined> {
  const store = new ParquetTableStore(await readableIndexDir(settings.output_storage.base_dir), 'js')
  if (!(await store.has(ENTITIES.name))) return undefined
  const titles = (await store.read(TITLES)).map((e) => e.title)
  const aliases = (await store.has(ENTITY_ALIASES.name)) ? await store.read(ENTITY_ALIASES) : []
  const key = (name: string) => entityKey(name, settings.entity_resolution.plurals)
  const byKey = new Map<string, string>()
  for (const t of titles) if (!byKey.has(key(t))) byKey.set(key(t), t)
  for (const a of aliases) if (!byKey.has(key(a.alias))) byKey.set(key(a.alias), a.title)
  const exact = new Set(titles)
  return (name) => (exact.has(name) ? name : byKey.get(key(name)))
}

/** The rule with its entity names replaced by the index's titles; an unknown name is an error naming it. */
function withIndexTitles(rule: CurationRule, lookup: TitleLookup | undefined): CurationRule {
  const title = (name: string) => {
    if (lookup === undefined) return name
    const found = lookup(name)
    if (found === undefined)
      throw new InputError(`no entity "${name}" in the index (names are matched after normalisation)`)
    return found
  }
  switch (rule.action) {
    case 'merge':
      return { ...rule, entity: title(rule.entity), into: title(rule.into) }
    case 'rename':
    case 'set_type':
    case 'delete':
      return { ...rule, entity: title(rule.entity) }
    default:
      return { ...rule, source: title(rule.source), target: title(rule.target) }
  }
}

/** Adds `rule` to the project's curation file; returns the rule as written and the file. */
export async function addCurationRule(
  settings: Settings,
  rule: CurationRule,
  who: string,
  now: Date,
): Promise<{ rule: CurationRule; file: string }> {
  const written = withIndexTitles(rule, await titleLookup(settings))
  const file = curationFileOf(settings)
  await appendCurationRule(file, written, who, now)
  return { rule: written, file }
}

export async function listCurationRules(settings: Settings): Promise<{ rules: CurationRule[]; file: string }> {
  const file = curationFileOf(settings)
  return { rules: await readCurationRules(file), file }
}

/** One line per rule, as `graphrag curate list` prints it. */
export function describeRule(rule: CurationRule): string {
  switch (rule.action) {
    case 'merge':
      return `merge ${rule.entity} into ${rule.into}`
    case 'rename':
      return `rename ${rule.entity} to ${rule.to}`
    case 'set_type':
      return `set type of ${rule.entity} to ${rule.type}`
    case 'delete':
      return `delete ${rule.entity}`
    case 'delete_relationship':
      return `delete relationship ${rule.source} — ${rule.target}`
    case 'add_relationship':
      return `add relationship ${rule.source} — ${rule.target}: ${rule.description}`
  }
}
