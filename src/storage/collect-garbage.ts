/**
 * A full garbage collection before a table of several row groups is written. The workflow that makes
 * such a table leaves hundreds of megabytes of garbage on the heap (the dense corpus's noun graph: 659 MB
 * used, 304 MB of it live), which V8, far below its limit, does not collect before the write's own
 * memory (the Parquet worker's WebAssembly copy of a row group's stream, twice the stream) lands on top
 * of it: collecting first took that workflow's peak from ~1.4-1.5 GB to ~1.2 GB. Each collection costs
 * about a second per few hundred megabytes of live heap, so only writes of over a million rows ask for one.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

/** Runs V8's full collection: `gc` of a context made after --expose-gc is set (the process needs no flag). */
export function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
}
