/** Helpers for tests that look at a whole index folder: table hashes, LanceDB row counts, a killable CLI run. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DOCUMENTS } from '../../src/model/documents.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { PROJECT_ROOT } from './shared.js'

/** sha256 of every Parquet table in `dir`, by table name. */
export async function parquetHashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.parquet')).sort()) {
    out[file] = createHash('sha256')
      .update(await readFile(join(dir, file)))
      .digest('hex')
  }
  return out
}

/**
 * parquetHashes for comparing two projects: documents are compared without creation_date (the
 * input files' modification times differ between two test folders).
 */
export async function comparableTables(dir: string): Promise<Record<string, string>> {
  const out = await parquetHashes(dir)
  const docs = (await new ParquetTableStore(dir).read(DOCUMENTS)).map(({ creation_date: _, ...rest }) => rest)
  out['documents.parquet'] = createHash('sha256').update(JSON.stringify(docs)).digest('hex')
  return out
}

/** Row count of every LanceDB table under `dbUri`. */
export async function lanceRowCounts(dbUri: string): Promise<Record<string, number>> {
  const store = await openVectorStore(dbUri)
  try {
    const out: Record<string, number> = {}
    for (const name of (await store.tableNames()).sort()) out[name] = (await store.vectorsById(name)).size
    return out
  } finally {
    store.close()
  }
}

export interface SpawnedCli {
  child: ChildProcess
  stderr: () => string
  /** Resolves once stderr matches `pattern` (rejects if the process ends first). */
  waitFor(pattern: RegExp): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts the built CLI without waiting for it, so a test can kill it mid-run. */
export function spawnCli(args: readonly string[], env: Record<string, string | undefined> = {}): SpawnedCli {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = []
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const w of waiters.splice(0)) {
      if (w.pattern.test(stderr)) w.resolve()
      else waiters.push(w)
    }
  })
  child.stdout!.resume()
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  )
  return {
    child,
    stderr: () => stderr,
    exited,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve()
        waiters.push({ pattern, resolve })
        void exited.then(() => reject(new Error(`process ended before ${pattern}: ${stderr}`)))
      }),
  }
}
