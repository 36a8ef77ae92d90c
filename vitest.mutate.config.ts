// The unit tests of the modules `npm run mutate` mutates (stryker.config.mjs): no pipelines, so each mutant runs in seconds.
// MUTATE_TESTS (comma-separated files) narrows them for a run over fewer modules.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: process.env.MUTATE_TESTS?.split(',') ?? [
      'test/index/operations/chunk-text.test.ts',
      'test/index/operations/extract-graph-parse.test.ts',
      'test/index/operations/extract-covariates-parse.test.ts',
      'test/index/plan/plan-fingerprints.test.ts',
      'test/index/run/resume.test.ts',
      'test/graph/leiden/*.test.ts',
      'test/query/local-budget.test.ts',
      'test/query/context-units.test.ts',
      'test/query/table-format.test.ts',
      'test/query/communities.test.ts',
      'test/index/operations/community-reports-stable-reuse.test.ts',
      'test/index/operations/community-reports-stale-reuse.test.ts',
      'test/index/operations/stale-bound.test.ts',
      'test/index/operations/community-reports-reuse.test.ts',
      'test/index/operations/text-unit-reports.test.ts',
      'test/index/reply-reuse.test.ts',
      'test/query/hybrid/*.test.ts',
      'test/server/server.test.ts',
      'test/server/requests.test.ts',
      'test/server/requests-schema.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
})
