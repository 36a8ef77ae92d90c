// Mutation testing of the core modules: `npm run mutate` (not part of `npm test`; slow). One test process,
// as the machine is shared. A smaller scope (the chunker and the parser with their own tests):
//   MUTATE_TESTS=test/index/operations/chunk-text.test.ts,test/index/operations/extract-graph-parse.test.ts \
//   npm run mutate -- --mutate src/index/operations/chunk-text.ts,src/index/operations/extract-graph/parse.ts
// The four areas of issue 28 §11, with their test files and the last scores: docs/testing.md.
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The unit tests of these modules only (vitest.mutate.config.ts); per-test coverage picks the ones that reach each mutant.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: [
    'src/index/operations/extract-graph/parse.ts',
    'src/index/operations/extract-graph/reply-text.ts',
    'src/index/operations/chunk-text.ts',
    'src/index/plan/plan-fingerprints.ts',
    'src/index/run/resume.ts',
    'src/graph/leiden/*.ts',
    'src/query/context/*.ts',
    // The update's report reuse (issue 28 §11), hybrid scoring and the server's request checks; the
    // clustering projection (src/graph/leiden/project*.ts) is in the Leiden glob above.
    'src/index/operations/community-reports/stale-reuse.ts',
    'src/index/operations/community-reports/stable-reuse.ts',
    'src/index/operations/community-reports/report-reuse.ts',
    'src/query/hybrid/ranking.ts',
    'src/query/hybrid/fusion.ts',
    'src/query/hybrid/bonuses.ts',
    'src/query/hybrid/signals.ts',
    'src/server/requests.ts',
  ],
  concurrency: 1,
  // Stryker rewrites tsconfig.json through TypeScript's JS API, which TypeScript 7 no longer has; vitest
  // transpiles on its own and needs no rewrite, so the rewrite is pointed at a file that does not exist.
  tsconfigFile: 'no-tsconfig-rewrite.json',
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 20,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
