/** `graphrag index`: runs the pipeline (or, with --dry-run, shows what would run and what it would cost). */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import type { IndexMethod } from '../index/plan/pipelines.js'
import type { RunIndexOptions } from '../index/run/runner.js'
import { addBatchOptions, BATCHES_PENDING_EXIT_CODE, type BatchFlags, batchOptions } from './batch-flags.js'

interface IndexFlags extends BatchFlags, ProjectFlags {
  method?: IndexMethod
  verbose: boolean
  dryRun: boolean
  cache: boolean
  resume: boolean
  skipValidation: boolean
  allowPartial: boolean
  shard?: string
}

export function registerIndexCommand(program: Command): void {
  const command = withProjectOptions(
    program
      .command('index')
      .description('Build the index: documents, text units, graph, communities, reports and vectors.'),
  )
    .option(
      '-m, --method <method>',
      'standard (LLM extraction) or fast (NLP, offline); default from settings, else standard',
    )
    .option('-v, --verbose', 'debug logging and stack traces', false)
    .option(
      '--dry-run',
      'check settings and inputs, list the workflows and estimate LLM calls and cost; call no model',
      false,
    )
    .option('--cache', 'use the LLM cache (the default; Microsoft GraphRAG spells it --cache/--no-cache)', true)
    .option('--no-cache', 'ignore and do not write the LLM cache')
    .option('--no-resume', 'run every workflow even if it finished before with unchanged inputs')
    .option('--skip-validation', 'skip the one-call-per-model connectivity check', false)
    .option(
      '--allow-partial',
      'finish the index even when text units or reports fail (failed calls, unusable model replies), listing what was lost',
      false,
    )
    .option(
      '--shard <I/N|auto>',
      'do only the model work of the I-th of N slices of the text units into the shared cache, then stop (CI matrices; finish with a run without --shard); auto reads the slice from the array-job platform (docs/sharding.md)',
    )
    .action(runIndex)
  addBatchOptions(command)
}

async function runIndex(flags: IndexFlags): Promise<void> {
  const options = {
    root: flags.root,
    configFile: flags.config,
    method: flags.method,
    verbose: flags.verbose,
    cache: flags.cache,
    resume: flags.resume,
    skipValidation: flags.skipValidation,
    allowPartial: flags.allowPartial,
    batch: batchOptions(flags),
  }
  // The reference's update methods: `index --method standard-update` is `update --method standard`.
  const update = flags.method !== undefined && /-update$/.test(flags.method as string)
  if (flags.shard !== undefined && !flags.dryRun) {
    const { runShardCommand } = await import('./shard-command.js')
    const method = update ? (flags.method as string).replace(/-update$/, '') : flags.method
    return runShardCommand({ ...options, method: method as IndexMethod | undefined }, flags.shard, { update })
  }
  if (update) {
    const { updateCommand } = await import('./update-run.js')
    return updateCommand(options, flags.dryRun)
  }
  if (flags.dryRun) {
    const { printDryRun } = await import('./dry-run.js')
    return printDryRun(options, process.stdout)
  }
  await runWholeIndex(options)
}

/** The run proper, then the full-text index refresh unless the run was interrupted or left batches pending. */
async function runWholeIndex(options: RunIndexOptions): Promise<void> {
  const { runInterruptibleIndex } = await import('./interruptible-index.js')
  const { createConsoleReporter } = await import('./console-reporter.js')
  const { configOf } = await import('../index/run/runner.js')
  // Loaded once: the run, an interruption's record and the full-text refresh all use it.
  const loaded = { ...options, config: configOf(options) }
  await runInterruptibleIndex(loaded, createConsoleReporter())
  if (process.exitCode === 130 || process.exitCode === BATCHES_PENDING_EXIT_CODE) return
  const { refreshFullTextAfterRun } = await import('./full-text-after-run.js')
  await refreshFullTextAfterRun(loaded)
}
