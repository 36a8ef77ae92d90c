/**
 * The batch flags of `graphrag index` and `graphrag update` (docs/batch.md), and how a `--no-wait`
 * run that left batches running ends: a line naming them and exit code 75.
 */
import type { Command } from 'commander'
import { ConfigError } from '../errors.js'
import type { BatchRunOptions } from '../index/run/batch-run.js'

/** `--no-wait` stopped with batches still running at the provider: run the same command again to collect them. */
export const BATCHES_PENDING_EXIT_CODE = 75

export interface BatchFlags {
  batch: boolean
  wait: boolean
  batchFallback: string
  shard?: string
}

export function addBatchOptions(command: Command): Command {
  return command
    .option(
      '--batch',
      "send each workflow step's model calls as provider batches (OpenAI, Azure OpenAI, Anthropic, Gemini): about half the price, answered within 24 h; see docs/batch.md",
      false,
    )
    .option(
      '--no-wait',
      `with --batch: submit the batches, and stop with exit code ${BATCHES_PENDING_EXIT_CODE} while they run (run the same command again to collect them and go on)`,
    )
    .option(
      '--batch-fallback <mode>',
      'with --batch: where a request a batch did not answer usably is asked again: batch (the next batch) or sync (a synchronous call)',
      'batch',
    )
}

/** The run's batch options from the flags (without --batch, models with `batch: true` still batch). */
export function batchOptions(flags: BatchFlags): BatchRunOptions {
  if (flags.batchFallback !== 'batch' && flags.batchFallback !== 'sync')
    throw new ConfigError(`--batch-fallback: expected batch or sync, got "${flags.batchFallback}"`)
  // A shard makes its slice's calls synchronously into the shared cache; batching is the other way to pay less.
  if (flags.shard !== undefined && (flags.batch || !flags.wait))
    throw new ConfigError(
      '--shard and --batch do not combine: shards make their calls synchronously (see docs/batch.md)',
    )
  return { all: flags.batch, noWait: !flags.wait, fallback: flags.batchFallback }
}
