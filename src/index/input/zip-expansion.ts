/**
 * Zip bombs in zip-based inputs (.docx, .xlsx): a small file whose parts inflate to hundreds of
 * megabytes would take the readers (mammoth, read-excel-file), which inflate whole parts in memory,
 * past the heap. Before a reader sees the file, every part is inflated here in small steps and only
 * counted, so the check itself holds little memory; declared sizes are not trusted (a bomb can lie).
 */
import { Unzip, UnzipInflate } from 'fflate'
import { UnreadableTextError } from './decode-text.js'

/** Compressed bytes fed to the inflater at a time: one step yields at most ~1,000 times this (deflate's ratio). */
const STEP = 16 * 1024
/** Past this size, a file that expands more than MAX_RATIO times its own size is refused as a bomb. */
const RATIO_FLOOR = 16 * 2 ** 20
const MAX_RATIO = 200

export interface ZipLimits {
  /** What all parts together may inflate to (input.max_unzipped_mb). */
  readonly maxBytes: number
}

/** Throws UnreadableTextError when `bytes` (a zip archive) inflates past the limits; damaged archives are left to the reader. */
export function checkZipExpansion(bytes: Uint8Array, format: string, limits: ZipLimits): void {
  let total = 0
  let refusal: string | undefined
  const refuse = (reason: string) => {
    refusal ??= reason
  }
  const unzip = new Unzip((file) => {
    file.ondata = (error, chunk) => {
      if (error !== null || refusal !== undefined) return
      total += chunk.length
      if (total > limits.maxBytes)
        refuse(
          `it expands to more than ${mb(limits.maxBytes)} MB when unzipped (input.max_unzipped_mb); a ${format} file that large is not a real document`,
        )
      else if (total > RATIO_FLOOR && total > MAX_RATIO * bytes.length)
        refuse(
          `its parts expand more than ${MAX_RATIO} times (${mb(bytes.length)} MB to over ${mb(total)} MB): a zip bomb, not a real ${format} document`,
        )
    }
    try {
      file.start()
    } catch {
      // A compression method fflate does not know: the reader decides what to make of the part.
    }
  })
  unzip.register(UnzipInflate)
  try {
    for (let at = 0; at < bytes.length && refusal === undefined; at += STEP)
      unzip.push(bytes.subarray(at, at + STEP), at + STEP >= bytes.length)
  } catch {
    // Damaged archive: the reader reports it in its own words.
  }
  if (refusal !== undefined) throw new UnreadableTextError(refusal)
}

function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)
}
