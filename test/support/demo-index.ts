/**
 * fixtures/demo indexed offline (its own settings: fast method, hashing embedder, no model), built once
 * per test run and handed out as copies: the files that start from this index (updates, curation,
 * export, serve) each spent a full index on it. Built in process; the CLI's own demo index is
 * test/e2e/offline-demo.test.ts's subject.
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runIndex } from '../../src/index/run/runner.js'
import { PROJECT_ROOT } from './shared.js'
import { testdir } from './testdir.js'

/** Where the run's template lives: the run folder of run-dir.ts, else (a config without it) one per worker. */
let fallbackDir: Promise<string> | undefined
async function runDir(): Promise<string> {
  const shared = process.env.GRAPHRAG_TEST_RUN_DIR
  if (shared !== undefined && existsSync(shared)) return shared
  fallbackDir ??= mkdtemp(join(tmpdir(), 'graphrag-run-'))
  return fallbackDir
}

/**
 * The template's folder, indexed. Workers start their first files together: the one that makes the
 * lock folder builds, the others wait for the template to appear (or for the lock to go: a builder
 * that failed, whose error its own file reports; then they build it themselves).
 */
async function template(): Promise<string> {
  const dir = join(await runDir(), 'demo')
  const lock = `${dir}.lock`
  while (!existsSync(dir)) {
    const claimed = await mkdir(lock).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error
        return false
      },
    )
    if (claimed) {
      try {
        await build(dir)
      } finally {
        await rm(lock, { recursive: true, force: true })
      }
    } else await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return dir
}

/** Indexes a copy of fixtures/demo and moves it to `dir` whole (rename is atomic: readers see all or nothing). */
async function build(dir: string): Promise<void> {
  const building = join(await mkdtemp(join(await runDir(), 'building-')), 'demo')
  await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), building, { recursive: true })
  // A checkout where someone indexed fixtures/demo by hand holds its generated folders.
  for (const generated of ['output', 'cache', 'logs', '.output.run', 'update_output'])
    await rm(join(building, generated), { recursive: true, force: true })
  await runIndex({ root: building, env: {}, skipValidation: true })
  await rename(building, dir)
}

/** A fresh copy of the indexed demo project (input, settings, output, cache), in a folder named `demo`. */
export async function indexedDemoCopy(): Promise<string> {
  const root = join(await testdir(), 'demo')
  await cp(await template(), root, { recursive: true })
  return root
}
