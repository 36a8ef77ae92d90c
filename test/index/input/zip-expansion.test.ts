/**
 * The zip-bomb check counts what all parts inflate to together (issue 46, item 3): an archive of
 * many parts, each well under the limit, is refused when their sum is over it.
 */
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { checkZipExpansion } from '../../../src/index/input/zip-expansion.js'

const MB = 2 ** 20

/** A zip of `parts` parts of `mb` megabytes each (compressible: the archive stays small). */
function manyParts(parts: number, mb: number): Uint8Array {
  const files: Record<string, Uint8Array> = { '[Content_Types].xml': new TextEncoder().encode('<Types/>') }
  for (let i = 0; i < parts; i++) files[`word/part${i}.xml`] = new Uint8Array(mb * MB).fill(0x41 + i)
  return zipSync(files, { level: 1 })
}

describe('checkZipExpansion', () => {
  it('refuses five parts of 1 MB under a 4 MB limit, though no part and no inflated chunk is over it', () => {
    expect(() => checkZipExpansion(manyParts(5, 1), 'docx', { maxBytes: 4 * MB })).toThrow(
      /expands to more than 4 MB when unzipped \(input\.max_unzipped_mb\)/,
    )
  })

  it('lets the same parts through when their sum is under the limit', () => {
    expect(() => checkZipExpansion(manyParts(3, 1), 'docx', { maxBytes: 4 * MB })).not.toThrow()
  })
})
