/**
 * Runs the end-to-end and server test files first. On 2 workers the run ends when the last file
 * ends: a 100 s end-to-end file started last keeps one worker busy long after the other is idle.
 * Vitest orders by the durations it cached from earlier runs, but CI installs node_modules afresh
 * (no cache), so there it would fall back to file size, which says little about a file's time.
 * Within each group the order stays vitest's own.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const HEAVY_FIRST = ['/test/e2e/', '/test/server/', '/test/cli/', '/test/ui/']

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.replaceAll('\\', '/')
  const at = HEAVY_FIRST.findIndex((dir) => path.includes(dir))
  return at === -1 ? HEAVY_FIRST.length : at
}

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files)
    // Array.prototype.sort is stable: vitest's order is kept within a group.
    return ordered.sort((a, b) => rank(a) - rank(b))
  }
}
