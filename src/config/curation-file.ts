/**
 * curation.yaml: the user's corrections to the graph, applied on every index and update
 * (docs/entity-resolution.md). Read strictly: a malformed rule is one error naming the file and rule.
 */
import { appendFile, readFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { ConfigError } from '../errors.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import { unlessAbsent } from '../storage/fs-errors.js'
import { parseDocument } from '../vendor/yaml.js'

export type CurationRule =
  | { readonly action: 'merge'; readonly entity: string; readonly into: string }
  | { readonly action: 'rename'; readonly entity: string; readonly to: string }
  | { readonly action: 'set_type'; readonly entity: string; readonly type: string }
  | { readonly action: 'delete'; readonly entity: string }
  | { readonly action: 'delete_relationship'; readonly source: string; readonly target: string }
  | {
      readonly action: 'add_relationship'
      readonly source: string
      readonly target: string
      readonly description: string
      readonly weight?: number
    }

/** Each action's required text fields (add_relationship may also give a numeric weight). */
const FIELDS: Readonly<Record<CurationRule['action'], readonly string[]>> = {
  merge: ['entity', 'into'],
  rename: ['entity', 'to'],
  set_type: ['entity', 'type'],
  delete: ['entity'],
  delete_relationship: ['source', 'target'],
  add_relationship: ['source', 'target', 'description'],
}

export function curationPath(root: string, file: string): string {
  return isAbsolute(file) ? file : join(root, file)
}

/** The rules of `path`; none when the file does not exist. */
export async function readCurationRules(path: string): Promise<CurationRule[]> {
  const text = await unlessAbsent(path, 'read', () => readFile(path, 'utf8'), '')
  return parseCurationRules(text, path)
}

export function parseCurationRules(text: string, file: string): CurationRule[] {
  const doc = parseDocument(text)
  if (doc.errors.length > 0) throw new ConfigError(`${file}: not valid YAML: ${doc.errors[0]!.message}`, { file })
  const top: unknown = doc.toJS()
  if (top === null || top === undefined) return []
  const rules = (top as { rules?: unknown }).rules
  if (typeof top !== 'object' || Array.isArray(top) || Object.keys(top).some((k) => k !== 'rules'))
    throw new ConfigError(`${file}: expected a map with one key, rules (a list)`, { file })
  if (rules === null || rules === undefined) return []
  if (!Array.isArray(rules)) throw new ConfigError(`${file}: rules must be a list`, { file, keyPath: 'rules' })
  return rules.map((rule, i) => checkRule(rule, file, `rules[${i}]`))
}

function checkRule(rule: unknown, file: string, keyPath: string): CurationRule {
  const fail = (why: string) => new ConfigError(`${file}: ${keyPath}: ${why}`, { file, keyPath })
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw fail('a rule must be a map')
  const r = rule as Record<string, unknown>
  const action = r.action
  if (typeof action !== 'string' || !Object.hasOwn(FIELDS, action))
    throw fail(`action must be one of ${Object.keys(FIELDS).join(', ')} (got ${JSON.stringify(action)})`)
  const fields = FIELDS[action as CurationRule['action']]
  for (const f of fields)
    if (typeof r[f] !== 'string' || (r[f] as string).trim() === '') throw fail(`${action} needs a non-empty ${f}`)
  const allowed = new Set(['action', ...fields, ...(action === 'add_relationship' ? ['weight'] : [])])
  const unknown = Object.keys(r).find((k) => !allowed.has(k))
  if (unknown !== undefined) throw fail(`unknown key ${unknown} for ${action}`)
  if (r.weight !== undefined && (typeof r.weight !== 'number' || !(r.weight > 0)))
    throw fail('weight must be a positive number')
  return r as unknown as CurationRule
}

/** Appends `rule` to the file (created when absent; comments kept) and a JSON line to its audit log. */
export async function appendCurationRule(path: string, rule: CurationRule, who: string, at: Date): Promise<void> {
  const text = await unlessAbsent(path, 'read', () => readFile(path, 'utf8'), '')
  parseCurationRules(text, path)
  const doc = parseDocument(text)
  if (doc.contents === null || doc.get('rules') === undefined || doc.get('rules') === null)
    doc.set('rules', doc.createNode([]))
  doc.addIn(['rules'], doc.createNode(rule))
  await writeFileAtomic(path, doc.toString())
  await appendFile(auditLogPath(path), `${JSON.stringify({ at: at.toISOString(), who, rule })}\n`)
}

/** `curation.yaml` → `curation.audit.jsonl` beside it. */
export function auditLogPath(curationFile: string): string {
  return curationFile.replace(/(\.ya?ml)?$/u, '.audit.jsonl')
}
