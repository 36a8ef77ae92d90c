// How many rows a batched Parquet read takes at a time (parquet.ts readBatchRows): each batch is read at
// its offset, and reaching an offset goes through the group's rows before it, so a group must never be
// cut into more than sixteen reads, however large its rows, while small rows still go a few MB at a time.
import { describe, expect, it } from 'vitest'
import { readBatchRows } from '../../src/storage/parquet.js'

describe('readBatchRows', () => {
  it('takes at least a sixteenth of the largest row group, even when one row is over the batch size', () => {
    // The 30 MB dense corpus's communities: 14,610 rows in one group, ~4 MB of relationship ids a row.
    expect(readBatchRows(14_610, 14_610, 3.9 * 2 ** 20)).toBe(914)
    // Relationships: 7.7 M rows in groups of a million, a few hundred bytes a row.
    expect(readBatchRows(7_690_618, 2 ** 20, 300)).toBe(65_536)
  })

  it('takes about four megabytes of small rows, within the table', () => {
    expect(readBatchRows(5_000_000, 2 ** 20, 16)).toBe(262_144)
    expect(readBatchRows(1_000, 1_000, 16)).toBe(1_000)
    expect(readBatchRows(1, 1, 10 * 2 ** 20)).toBe(1)
  })
})
