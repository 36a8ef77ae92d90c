/**
 * Access to the read-only reference material in ../shared. Tests that need it use
 * `describeShared`, which skips with a visible notice when the folder is absent (a user's clone).
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))
/** Project root (the folder holding package.json). */
export const PROJECT_ROOT = resolve(here, '..', '..')
const candidate = process.env.GRAPHRAG_SHARED_DIR ?? resolve(PROJECT_ROOT, '..', 'shared')

/** Absolute path of ../shared, or undefined when it is not beside the project. */
export const SHARED_DIR: string | undefined = existsSync(join(candidate, 'spec')) ? candidate : undefined

/** Path inside ../shared; only call inside a `describeShared` block. */
export function sharedPath(...parts: string[]): string {
  if (SHARED_DIR === undefined) throw new Error('../shared is not available')
  return join(SHARED_DIR, ...parts)
}

let noticePrinted = false

/**
 * `describe` that runs only where ../shared exists, and says so when it skips. The body is not even
 * collected then: vitest runs a skipped describe's body to list its tests, and bodies may read
 * ../shared at that point.
 */
export function describeShared(name: string, body: () => void): void {
  if (SHARED_DIR === undefined) {
    if (!noticePrinted) {
      noticePrinted = true
      console.warn('NOTICE: ../shared is absent; tests that need the reference material are skipped.')
    }
    describe.skip(`${name} (skipped: ../shared absent)`, () => {
      it.skip('needs the reference material in ../shared')
    })
    return
  }
  describe(name, body)
}
