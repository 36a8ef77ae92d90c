/**
 * vitest globalSetup: one temporary folder per test run, named to its workers in GRAPHRAG_TEST_RUN_DIR
 * (they inherit the environment), where they share what is costly to build and the same for every file
 * (test/support/demo-index.ts). Removed when the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'graphrag-run-'))
  process.env.GRAPHRAG_TEST_RUN_DIR = dir
  return () => rm(dir, { recursive: true, force: true })
}
