/** `graphrag update`: brings the index up to date with new, edited and deleted documents (or, with --dry-run, says what it would do). */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import type { RunIndexOptions } from '../index/run/runner.js'
import { addBatchOptions, type BatchFlags, batchOptions } from './batch-flags.js'

interface UpdateFlags extends BatchFlags, ProjectFlags {
  method?: string
  verbose: boolean
  dryRun: boolean
  cache: boolean
  skipValidation: boolean
  shard?: string
}

export function registerUpdateCommand(program: Command): void {
  const command = withProjectOptions(
    program
      .command('update')
      .description(
        'Bring the index up to date with the input folder: new, edited and deleted documents; pays only for what changed.',
      ),
  )
    .option(
      '-m, --method <method>',
      'standard or fast (standard-update / fast-update also accepted); default from settings, else standard',
    )
    .option('-v, --verbose', 'debug logging and stack traces', false)
    .option(
      '--dry-run',
      "list new, edited and deleted documents and estimate the update's model calls and cost; call no model",
      false,
    )
    .option('--no-cache', 'ignore the LLM cache (answers kept in the index are still reused)')
    .option('--skip-validation', 'skip the one-call-per-model connectivity check', false)
    .option(
      '--shard <I/N|auto>',
      'do only the model work of the I-th of N slices of the text units into the shared cache, then stop (finish with an update without --shard); auto reads the slice from the array-job platform (docs/sharding.md)',
    )
    .action(async (flags: UpdateFlags) => {
      const options: RunIndexOptions = {
        root: flags.root,
        configFile: flags.config,
        method: flags.method as RunIndexOptions['method'],
        verbose: flags.verbose,
        cache: flags.cache,
        skipValidation: flags.skipValidation,
        batch: batchOptions(flags),
      }
      if (flags.shard !== undefined && !flags.dryRun) {
        const { runShardCommand } = await import('./shard-command.js')
        const method = options.method?.replace(/-update$/, '') as RunIndexOptions['method']
        return runShardCommand({ ...options, method }, flags.shard, { update: true })
      }
      const { updateCommand } = await import('./update-run.js')
      await updateCommand(options, flags.dryRun)
    })
  addBatchOptions(command)
}
