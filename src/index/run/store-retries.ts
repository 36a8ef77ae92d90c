/**
 * Store resends during a run, shown as model retries are: each one a line in the run's log, and
 * their number on the progress line. Resends before the log exists (taking the lock, pulling the
 * published generation) are kept and written once it does.
 */
import type { Logger } from '../../logger.js'
import { onStorageRetry, type StorageRetry } from '../../storage/object/object-store.js'

export interface StoreRetryWatch {
  /** Resends since the run began. */
  count(): number
  /** Writes the resends so far, and every later one, to `log`. */
  attach(log: Logger): void
  stop(): void
}

/** Lines kept for a log that is not open yet; more are counted, not kept. */
const EARLY_LINES = 100

export function watchStoreRetries(): StoreRetryWatch {
  let count = 0
  let log: Logger | undefined
  const early: string[] = []
  const stop = onStorageRetry((retry) => {
    count++
    const line = describeRetry(retry)
    if (log !== undefined) log.warn(line)
    else if (early.length < EARLY_LINES) early.push(line)
  })
  return {
    count: () => count,
    attach(to) {
      log = to
      for (const line of early.splice(0)) to.warn(line)
    },
    stop,
  }
}

function describeRetry(retry: StorageRetry): string {
  return `${retry.store}: ${retry.request} failed (${retry.reason}); sent again (try ${retry.attempt})`
}
