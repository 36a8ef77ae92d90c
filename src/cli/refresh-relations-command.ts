/**
 * `graphrag refresh-relations` (seed design 000's refresh_relations utility): rebuilds the typed
 * chunk edges (create_chunk_graph) of the current index, every earlier workflow resumed; with
 * --no-cache the model is asked again instead of answering from the cache.
 */
import type { Command } from 'commander'

interface RefreshFlags {
  root: string
  config?: string
  verbose: boolean
  cache: boolean
  skipValidation: boolean
}

export function registerRefreshRelationsCommand(program: Command): void {
  program
    .command('refresh-relations')
    .description(
      'Rebuild the chunk graph (chunk_edges.parquet) of the current index alone: no entity is extracted again.',
    )
    .option('-r, --root <dir>', 'project root', '.')
    .option('-c, --config <file>', 'settings file (default: settings.yaml/.yml/.json in the root)')
    .option('-v, --verbose', 'debug logging and stack traces', false)
    .option('--no-cache', 'ask the model again for the typed edges instead of reading the LLM cache')
    .option('--skip-validation', 'skip the one-call-per-model connectivity check', false)
    .action(async (flags: RefreshFlags) => {
      const { runInterruptibleIndex } = await import('./interruptible-index.js')
      const { createConsoleReporter } = await import('./console-reporter.js')
      const options = {
        root: flags.root,
        configFile: flags.config,
        verbose: flags.verbose,
        cache: flags.cache,
        skipValidation: flags.skipValidation,
        rerunFrom: 'create_chunk_graph' as const,
        command: 'graphrag refresh-relations',
      }
      await runInterruptibleIndex(options, createConsoleReporter())
    })
}
