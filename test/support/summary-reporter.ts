/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, that any CI log reader understands.
 * A test file that fails outside its tests (an import or a describe body that throws) counts as one
 * failure, and errors outside any test are named, so the line never reads green when the run is red.
 */
import type { Reporter, SerializedError, TestModule } from 'vitest/node'

export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of testModules) {
      let failedTests = 0
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') failedTests++
        else counts.skipped++
      }
      counts.failed += failedTests === 0 && module.state() === 'failed' ? 1 : failedTests
    }
    const errors = unhandledErrors.length > 0 ? `, ${unhandledErrors.length} errors outside tests` : ''
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${errors}\n`)
  }
}
