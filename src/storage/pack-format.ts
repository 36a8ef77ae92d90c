/**
 * The record format of cache packs (packed-kv.ts): a pack is a run of records, each
 *
 *   crc32 (u32) | kind (u8: 1 value, 2 deletion) | key length (u32) | value length (u32) | key | value
 *
 * little-endian, the checksum over everything after it. A writer killed mid-append leaves a torn
 * last record (short, or with a checksum that does not match): reading stops there and keeps the
 * records before it.
 */
import { crc32 } from 'node:zlib'

const HEADER = 13
const VALUE = 1
const DELETION = 2

export interface PackRecord {
  key: string
  /** undefined: the key was deleted. */
  value: string | undefined
}

/** A decoded record and where its value's bytes sit in the pack. */
export interface ScannedRecord {
  key: string
  deleted: boolean
  valueOffset: number
  valueLength: number
}

/** The records as one buffer, with where each value sits inside it. */
export function encodeRecords(records: readonly PackRecord[]): {
  bytes: Buffer
  values: Array<{ offset: number; length: number }>
} {
  const parts: Buffer[] = []
  const values: Array<{ offset: number; length: number }> = []
  let size = 0
  for (const { key, value } of records) {
    const keyBytes = Buffer.from(key, 'utf8')
    const valueBytes = Buffer.from(value ?? '', 'utf8')
    const header = Buffer.alloc(HEADER)
    header.writeUInt8(value === undefined ? DELETION : VALUE, 4)
    header.writeUInt32LE(keyBytes.length, 5)
    header.writeUInt32LE(valueBytes.length, 9)
    const sum = crc32(valueBytes, crc32(keyBytes, crc32(header.subarray(4))))
    header.writeUInt32LE(sum, 0)
    parts.push(header, keyBytes, valueBytes)
    values.push({ offset: size + HEADER + keyBytes.length, length: valueBytes.length })
    size += HEADER + keyBytes.length + valueBytes.length
  }
  return { bytes: Buffer.concat(parts, size), values }
}

/**
 * The whole records in `bytes` (a pack's bytes from `base` on), and where the scan stopped: at the
 * end of `bytes`, at a record that is not complete in it (`more`: read on from `next`), or at a
 * record whose checksum fails (`torn`: nothing after it is read).
 */
export function scanRecords(
  bytes: Buffer,
  base: number,
): { records: ScannedRecord[]; next: number; state: 'more' | 'torn'; needed: number } {
  const records: ScannedRecord[] = []
  let at = 0
  while (at + HEADER <= bytes.length) {
    const keyLength = bytes.readUInt32LE(at + 5)
    const valueLength = bytes.readUInt32LE(at + 9)
    const end = at + HEADER + keyLength + valueLength
    if (end > bytes.length) return { records, next: base + at, state: 'more', needed: end - at }
    const kind = bytes.readUInt8(at + 4)
    if ((kind !== VALUE && kind !== DELETION) || crc32(bytes.subarray(at + 4, end)) !== bytes.readUInt32LE(at))
      return { records, next: base + at, state: 'torn', needed: 0 }
    records.push({
      key: bytes.toString('utf8', at + HEADER, at + HEADER + keyLength),
      deleted: kind === DELETION,
      valueOffset: base + at + HEADER + keyLength,
      valueLength,
    })
    at = end
  }
  return { records, next: base + at, state: 'more', needed: HEADER }
}
