/**
 * A memory rule of the scheduler (schedule.ts runs independent workflows side by side): a workflow
 * that reads a large table waits until no other such workflow is running. Side by side they would
 * each hold their own read of it at once (on the 30 MB dense corpus, create_communities and
 * create_final_text_units each held the 7.7 M relationships' text-unit lists: 4.57 GB together, each
 * under 4 GB alone). Both run on the one JavaScript thread, so the wall time they save side by side
 * is only what overlaps with the Parquet worker threads: little, next to the memory.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { isAbsent } from '../../storage/fs-errors.js'

/**
 * Table files of more than this many bytes are large. A relationships file of a dense corpus's
 * 1.5 M relationships is ~80 MB on disk and 1–2 GB once read (ids, titles, text-unit lists).
 */
export const LARGE_TABLE_BYTES = 64 * 2 ** 20

/**
 * Whether any of the tables `reads` names is a Parquet file of more than `threshold` bytes in `dir`
 * (an absent table is not large). Synchronous, so the workflows that start together decide, and queue,
 * in list order.
 */
export function readsLargeTable(dir: string, reads: readonly string[], threshold = LARGE_TABLE_BYTES): boolean {
  return reads.some((name) => tableBytes(join(dir, `${name}.parquet`)) > threshold)
}

function tableBytes(file: string): number {
  try {
    return statSync(file).size
  } catch (error) {
    if (isAbsent(error)) return 0
    throw error
  }
}

/** Runs the tasks handed to it one at a time, in the order handed (a failed task does not stop the next). */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve()

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.last.then(task)
    this.last = result.catch(() => undefined)
    return result
  }
}
