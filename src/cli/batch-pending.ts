/**
 * The end of a run that `--no-wait` stopped while its batches run. Apart from batch-flags.ts, which
 * every start-up loads: this needs the batch queue's error class, which only a run loads.
 */
import { BatchesPending } from '../llm/batch/queue.js'
import { BATCHES_PENDING_EXIT_CODE } from './batch-flags.js'

/** Ends a run stopped by `--no-wait`: which batches run, how to go on, exit code 75. True when it was one. */
export function endWithPendingBatches(error: unknown, stderr: NodeJS.WritableStream): boolean {
  const pending = pendingBatches(error)
  if (pending === undefined) return false
  stderr.write(
    `Batches submitted and still running: ${pending.message}\nNothing is lost: run the same command again (here or in another job on the same store) to collect them and go on.\n`,
  )
  process.exitCode = BATCHES_PENDING_EXIT_CODE
  return true
}

/** The BatchesPending a `--no-wait` run stopped with, wherever it sits in the error's cause chain. */
function pendingBatches(error: unknown): BatchesPending | undefined {
  let at: unknown = error
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    if (at instanceof BatchesPending) return at
    at = at.cause
  }
  return undefined
}
