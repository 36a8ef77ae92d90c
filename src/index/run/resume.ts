/**
 * Resume bookkeeping. Each workflow's fingerprint chains the previous one with its own settings,
 * models, prompts and external inputs, so a change anywhere re-runs everything after it. After each
 * workflow the hashes of all tables are recorded; a run resumes after the longest matching prefix
 * of cleanly finished workflows whose recorded tables are still on disk, unchanged or only extended.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import { fileIdentity } from '../../storage/file-identity.js'
import { parseJson, unlessAbsent } from '../../storage/fs-errors.js'
import { ParquetTableStore, type TableStore } from '../../storage/table-store.js'

const RESUME_FILE = '.graphrag-resume.json'

export interface ResumeRecord {
  workflow: string
  fingerprint: string
  /** Hash of every table in the index right after this workflow finished. */
  tables: Record<string, string>
  /** Tables it rewrote keeping every row and column they had (documents gains text_unit_ids). */
  extended: string[]
  /** Items that failed within the failure budget: the workflow finished, but not cleanly. */
  failed_items: number
}

export interface ResumeState {
  version: 1
  completed: ResumeRecord[]
}

export async function readResumeState(outputDir: string): Promise<ResumeState> {
  const file = join(outputDir, RESUME_FILE)
  const text = await unlessAbsent(file, 'read resume state', () => readFile(file, 'utf8'), undefined)
  const parsed = text === undefined ? undefined : parseJson<ResumeState>(text)
  if (parsed?.version === 1 && Array.isArray(parsed.completed) && parsed.completed.every(isRecord)) return parsed
  // Absent or not ours (malformed, older format): nothing to resume, everything runs.
  return { version: 1, completed: [] }
}

/** Records written before a field existed do not count: their workflows simply run again. */
function isRecord(value: ResumeRecord | null): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof value.fingerprint === 'string' &&
    Array.isArray(value.extended) &&
    typeof value.failed_items === 'number'
  )
}

export async function writeResumeState(outputDir: string, state: ResumeState): Promise<void> {
  await writeFileAtomic(join(outputDir, RESUME_FILE), `${JSON.stringify(state, null, 2)}\n`)
}

/** model_replies is rewritten after each workflow's record (reply-reuse.ts) and is not an input of any workflow. */
const UNTRACKED_TABLES: ReadonlySet<string> = new Set(['model_replies'])

export async function tableHashes(store: TableStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of await store.names()) {
    if (UNTRACKED_TABLES.has(name)) continue
    const hash = store instanceof ParquetTableStore ? await fileHash(store, name) : await store.fingerprint(name)
    if (hash !== undefined) out[name] = hash
  }
  return out
}

/**
 * Hashes already computed, by file identity (see fileHash), oldest first. Tables are hashed after
 * every workflow, most of them unchanged since the last time (at 100k entities, ~150 MB hashed
 * nineteen times in an update); a few hundred entries cover the tables of several runs.
 */
const knownHashes = new Map<string, string>()
const KNOWN_HASHES_KEPT = 512

/**
 * A table file's hash, computed again only when the file is another one than last time: tables are
 * replaced by rename (a new inode) and the work generation links the published files (the same
 * bytes), so device, inode, size and modification time name its contents; an edit in place changes
 * the modification time. The file is looked at before and after hashing, so one replaced meanwhile
 * is not remembered.
 */
async function fileHash(store: ParquetTableStore, name: string): Promise<string | undefined> {
  const path = store.path(name)
  const before = await fileIdentity(path)
  const known = before === undefined ? undefined : knownHashes.get(before)
  if (known !== undefined) return known
  const hash = await store.fingerprint(name)
  if (hash !== undefined && before !== undefined && (await fileIdentity(path)) === before) {
    knownHashes.set(before, hash)
    if (knownHashes.size > KNOWN_HASHES_KEPT) knownHashes.delete(knownHashes.keys().next().value!)
  }
  return hash
}

/**
 * How many leading workflows can be skipped: the longest prefix of cleanly finished workflows
 * whose fingerprints match the record and whose recorded tables the index still holds.
 */
export function resumablePrefix(
  planned: readonly { workflow: string; fingerprint: string }[],
  state: ResumeState,
  current: Record<string, string>,
): number {
  let matching = 0
  while (
    matching < planned.length &&
    matching < state.completed.length &&
    sameRun(state.completed[matching]!, planned[matching]!)
  ) {
    if (state.completed[matching]!.failed_items > 0) break
    matching++
  }
  for (let k = matching; k > 0; k--) {
    if (tablesStillAsAt(k - 1, state.completed, current)) return k
  }
  return 0
}

/** Why the first workflow that runs again does so, when the reason is its own failed items. */
export function rerunReason(
  planned: readonly { workflow: string; fingerprint: string }[],
  state: ResumeState,
  from: number,
): string | undefined {
  const record = state.completed[from]
  if (
    record === undefined ||
    planned[from] === undefined ||
    !sameRun(record, planned[from]) ||
    record.failed_items === 0
  )
    return undefined
  return `${record.failed_items} ${record.failed_items === 1 ? 'item' : 'items'} failed last time`
}

function sameRun(record: ResumeRecord, planned: { workflow: string; fingerprint: string }): boolean {
  return record.workflow === planned.workflow && record.fingerprint === planned.fingerprint
}

/**
 * Every table recorded after workflow `at` is still there as it was then, or as a later workflow
 * of the recorded run extended it (final documents keep every input-document column, so chunking
 * can re-run on them). Tables written later are allowed: the workflows that run again rewrite
 * them before anything reads them.
 */
function tablesStillAsAt(at: number, records: readonly ResumeRecord[], current: Record<string, string>): boolean {
  return Object.entries(records[at]!.tables).every(([name, hash]) => {
    let expected = hash
    for (const later of records.slice(at + 1)) {
      const rewritten = later.tables[name]
      if (rewritten === undefined || rewritten === expected) continue
      if (!later.extended.includes(name)) return false
      expected = rewritten
    }
    return current[name] === expected
  })
}
