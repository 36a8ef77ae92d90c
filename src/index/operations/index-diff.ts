/**
 * What an update changed, table by table (the update_* workflows record it in stats.json), and
 * the integrity check that no contribution of a deleted or edited document survived.
 */

export interface KeyedDiff {
  added: number
  removed: number
  changed: number
  unchanged: number
}

/** Compares two tables keyed by `key`; a row whose `value` differs under the same key counts as changed. */
export function diffKeyed<T>(
  previous: readonly T[],
  current: readonly T[],
  key: (row: T) => string,
  value: (row: T) => string,
): KeyedDiff {
  return diffKeyedBy(previous, current, key, (a, b) => value(a) === value(b))
}

/**
 * diffKeyed with the rows compared by `same` (previous row, current row): for large tables, where
 * writing every row of both generations out as a string to compare was most of the work.
 */
export function diffKeyedBy<T>(
  previous: readonly T[],
  current: readonly T[],
  key: (row: T) => string,
  same: (before: T, now: T) => boolean,
): KeyedDiff {
  const before = new Map(previous.map((r) => [key(r), r]))
  const out: KeyedDiff = { added: 0, removed: 0, changed: 0, unchanged: 0 }
  const seen = new Set<string>()
  for (const row of current) {
    const k = key(row)
    seen.add(k)
    const old = before.get(k)
    if (old === undefined) out.added++
    else if (same(old, row)) out.unchanged++
    else out.changed++
  }
  for (const k of before.keys()) if (!seen.has(k)) out.removed++
  return out
}

/** Equal lists of strings, element by element. */
export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Flattens a diff into summary entries prefixed with the table name. */
export function diffSummary(table: string, diff: KeyedDiff): Record<string, number> {
  return {
    [`${table}_added`]: diff.added,
    [`${table}_removed`]: diff.removed,
    [`${table}_changed`]: diff.changed,
    [`${table}_unchanged`]: diff.unchanged,
  }
}

export interface IntegrityInput {
  documentIds: readonly string[]
  textUnits: readonly { id: string; document_id: string }[]
  entities: readonly { title: string; text_unit_ids: readonly string[] }[]
  relationships: readonly { source: string; target: string; text_unit_ids: readonly string[] }[]
  covariates?: readonly { id: string; text_unit_id: string | null }[]
}

/**
 * Dangling references, each as one line: a text unit of a document that is gone, an entity,
 * relationship or claim citing a text unit that is gone, a relationship to an entity that is gone,
 * an entity or relationship no text unit supports. Empty when the index is consistent.
 */
export function integrityProblems(input: IntegrityInput): string[] {
  const problems: string[] = []
  const docs = new Set(input.documentIds)
  const units = new Set(input.textUnits.map((u) => u.id))
  const titles = new Set(input.entities.map((e) => e.title))
  for (const u of input.textUnits)
    if (!docs.has(u.document_id)) problems.push(`text unit ${u.id}: document ${u.document_id} is not in documents`)
  for (const e of input.entities) checkSupport(`entity "${e.title}"`, e.text_unit_ids, units, problems)
  for (const r of input.relationships) {
    const name = `relationship "${r.source}" -> "${r.target}"`
    checkSupport(name, r.text_unit_ids, units, problems)
    for (const end of [r.source, r.target])
      if (!titles.has(end)) problems.push(`${name}: entity "${end}" is not in entities`)
  }
  for (const c of input.covariates ?? []) {
    if (c.text_unit_id !== null && !units.has(c.text_unit_id))
      problems.push(`claim ${c.id}: text unit ${c.text_unit_id} is not in text_units`)
  }
  return problems
}

function checkSupport(name: string, ids: readonly string[], units: ReadonlySet<string>, problems: string[]): void {
  if (ids.length === 0) problems.push(`${name}: no text unit supports it`)
  for (const id of ids) if (!units.has(id)) problems.push(`${name}: text unit ${id} is not in text_units`)
}
