/**
 * Resume bookkeeping. Each workflow's fingerprint chains the previous one with its own settings
 * and external inputs, so a change anywhere re-runs everything after it. After each workflow the
 * hashes of all tables are recorded; a run resumes after the longest matching prefix whose
 * recorded tables are all still on disk unchanged.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../storage/atomic-write.js'
import type { TableStore } from '../storage/table-store.js'

export const RESUME_FILE = '.graphrag-resume.json'

export interface ResumeRecord {
  workflow: string
  fingerprint: string
  /** Hash of every table in the index right after this workflow finished. */
  tables: Record<string, string>
}

export interface ResumeState {
  version: 1
  completed: ResumeRecord[]
}

export function chainFingerprint(previous: string, workflow: string, parts: unknown): string {
  return createHash('sha256').update(previous).update('\u0000').update(workflow).update('\u0000').update(stableJson(parts)).digest('hex')
}

/** JSON with sorted object keys, so fingerprints do not depend on key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    }
    return v
  })
}

export async function readResumeState(outputDir: string): Promise<ResumeState> {
  try {
    const parsed = JSON.parse(await readFile(join(outputDir, RESUME_FILE), 'utf8')) as ResumeState
    if (parsed.version === 1 && Array.isArray(parsed.completed)) return parsed
  } catch {
    // absent or unreadable: nothing to resume
  }
  return { version: 1, completed: [] }
}

export async function writeResumeState(outputDir: string, state: ResumeState): Promise<void> {
  await writeFileAtomic(join(outputDir, RESUME_FILE), `${JSON.stringify(state, null, 2)}\n`)
}

export async function tableHashes(store: TableStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of await store.names()) {
    const hash = await store.fingerprint(name)
    if (hash !== undefined) out[name] = hash
  }
  return out
}

/**
 * How many leading workflows can be skipped: the longest prefix whose fingerprints match the
 * record and whose recorded table state is exactly what the index holds now.
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
    state.completed[matching]!.workflow === planned[matching]!.workflow &&
    state.completed[matching]!.fingerprint === planned[matching]!.fingerprint
  ) {
    matching++
  }
  for (let k = matching; k > 0; k--) {
    if (unchangedSince(state.completed[k - 1]!.tables, current)) return k
  }
  return 0
}

/**
 * Every table recorded at that point is still there, byte for byte. Tables written later are
 * allowed: the workflows that run again rewrite them before anything reads them.
 */
function unchangedSince(recorded: Record<string, string>, current: Record<string, string>): boolean {
  return Object.entries(recorded).every(([name, hash]) => current[name] === hash)
}
