import { defineConfig } from 'vitest/config'
import HeavyFirstSequencer from './test/support/heavy-first-sequencer.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/*.case.ts', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Indexes stamp the run date into communities' and reports' period; tests that compare two runs'
    // bytes must not fail because midnight UTC fell between them (test/e2e/source-date-epoch.test.ts
    // checks the variable itself, and the wall-clock default).
    env: { SOURCE_DATE_EPOCH: '1767225600' },
    maxWorkers: 2,
    // A worker keeps its loaded modules from one file to the next: re-importing the source tree,
    // LanceDB and DuckDB for each of ~200 files cost more than a fifth of the run. No test mocks
    // modules; each file builds its own projects in fresh temporary folders.
    isolate: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // End-to-end and server files first, so the longest files do not start last (see the file).
    sequence: { sequencer: HeavyFirstSequencer },
    // A folder per run (GRAPHRAG_TEST_RUN_DIR) where workers share one build of what many files start from.
    // One Azurite and one s3rver for the files that use object storage (test/support/object-store-servers.ts).
    globalSetup: ['./test/support/run-dir.ts', './test/support/object-store-servers.ts'],
  },
})
