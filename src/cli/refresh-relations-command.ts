/**
 * `graphrag refresh-relations` (seed design 000's refresh_relations utility): rebuilds the typed
 * chunk edges (create_chunk_graph) of the current index, every earlier workflow resumed; with
 * --no-cache the model is asked again instead of answering from the cache. `--source` narrows it to
 * one document (its typed edges replaced, every other kept); `--window` and `--truncate` set the
 * batch size and the per-unit token cut of this run's calls (chunk_graph.batch_size and
 * relation_unit_max_tokens), through the same GRAPHRAG_CHUNK_GRAPH__… overrides a setting takes.
 */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import { wholeNumber } from './arguments.js'

interface RefreshFlags extends ProjectFlags {
  verbose: boolean
  cache: boolean
  skipValidation: boolean
  source?: string
  window?: number
  truncate?: number
}

export function registerRefreshRelationsCommand(program: Command): void {
  withProjectOptions(
    program
      .command('refresh-relations')
      .description(
        'Rebuild the chunk graph (chunk_edges.parquet) of the current index alone: no entity is extracted again.',
      ),
  )
    .option('-v, --verbose', 'debug logging and stack traces', false)
    .option(
      '--source <document>',
      "only this document's typed edges (its id or title, the file's path under the input folder): they are asked again and replace its old ones, every other typed edge is kept",
    )
    .option(
      '--window <units>',
      'text units per typed-edge call for this run (chunk_graph.batch_size)',
      wholeNumber(2, 1_000_000),
    )
    .option(
      '--truncate <tokens>',
      'tokens of each text unit shown in a typed-edge call for this run, cut at a word boundary (chunk_graph.relation_unit_max_tokens; 0 = whole units)',
      wholeNumber(0, 10_000_000),
    )
    .option('--no-cache', 'ask the model again for the typed edges instead of reading the LLM cache')
    .option('--skip-validation', 'skip the one-call-per-model connectivity check', false)
    .action(async (flags: RefreshFlags) => {
      const { runInterruptibleIndex } = await import('./interruptible-index.js')
      const { createConsoleReporter } = await import('./console-reporter.js')
      const { refreshEnv } = await import('../index/workflows/chunk-graph-refresh.js')
      const options = {
        root: flags.root,
        configFile: flags.config,
        env: {
          ...process.env,
          ...refreshEnv({
            ...(flags.source === undefined ? {} : { documents: [flags.source] }),
            window: flags.window,
            truncateTokens: flags.truncate,
          }),
        },
        verbose: flags.verbose,
        cache: flags.cache,
        skipValidation: flags.skipValidation,
        rerunFrom: 'create_chunk_graph' as const,
        command: 'graphrag refresh-relations',
      }
      await runInterruptibleIndex(options, createConsoleReporter())
    })
}
