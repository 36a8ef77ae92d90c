/**
 * A tiktoken encoding's mergeable ranks as one flat structure that loads without parsing: the token
 * byte strings in rank order in one byte pool, their offsets, and an open-addressing hash table from
 * byte string to rank. `npm run build` writes it to `dist/llm/bpe/tables/<encoding>.bin` for the
 * encodings queries use (scripts/tokenizer-tables.mjs); where the file is absent (tests running from
 * src, the rarer encodings) it is built in memory from the rank data the tiktoken package ships.
 *
 * File layout (little-endian, every section 4-byte aligned):
 *   u32 magic "GBPE", u32 format version, u32 rank count, u32 hash capacity (a power of two),
 *   u32 pool bytes, u32 metadata bytes,
 *   u32[rank count + 1] offsets into the pool (rank r = pool[offsets[r], offsets[r + 1]); empty for a gap),
 *   i32[capacity] hash slots (a rank, or -1),
 *   u8[pool bytes] pool (padded to 4), u8[metadata bytes] JSON { pat_str, special_tokens }.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const MAGIC = 0x45504247 // "GBPE"
const VERSION = 1
const HEADER_WORDS = 6

export interface RankTable {
  /** One more than the highest mergeable rank. */
  readonly rankCount: number
  readonly offsets: Uint32Array
  readonly pool: Uint8Array
  readonly slots: Int32Array
  /** The encoding's pre-tokenizer pattern, as tiktoken states it (Rust regex syntax). */
  readonly patStr: string
  readonly specialTokens: Readonly<Record<string, number>>
}

/** FNV-1a over bytes[start, end): the hash both the writer and the reader use. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193)
  return h >>> 0
}

/** The rank of bytes[start, end), or -1 when that byte string is not a token. */
export function lookupRank(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  const { slots, offsets, pool } = table
  const mask = slots.length - 1
  const length = end - start
  let slot = hashBytes(bytes, start, end) & mask
  for (;;) {
    const rank = slots[slot]
    if (rank < 0) return -1
    const from = offsets[rank]
    if (offsets[rank + 1] - from === length) {
      let i = 0
      while (i < length && pool[from + i] === bytes[start + i]) i++
      if (i === length) return rank
    }
    slot = (slot + 1) & mask
  }
}

interface EncoderJson {
  pat_str: string
  special_tokens: Record<string, number>
  bpe_ranks: string
}

/**
 * Builds the table from tiktoken's `encoders/<name>.json`, whose `bpe_ranks` holds lines of
 * `<key> <first rank> <base64 token> <base64 token> …` with consecutive ranks.
 */
export function buildRankTable(json: EncoderJson): RankTable {
  const tokens: Buffer[] = []
  for (const line of json.bpe_ranks.split('\n')) {
    if (line === '') continue
    const fields = line.split(' ')
    let rank = Number(fields[1])
    for (let k = 2; k < fields.length; k++) tokens[rank++] = Buffer.from(fields[k], 'base64')
  }
  const rankCount = tokens.length
  const offsets = new Uint32Array(rankCount + 1)
  let size = 0
  for (let r = 0; r < rankCount; r++) {
    offsets[r] = size
    size += tokens[r]?.length ?? 0
  }
  offsets[rankCount] = size
  const pool = new Uint8Array(size)
  for (let r = 0; r < rankCount; r++) if (tokens[r] !== undefined) pool.set(tokens[r], offsets[r])
  // Load factor at most 1/2, so a miss ends after a couple of probes.
  let capacity = 1
  while (capacity < rankCount * 2) capacity *= 2
  const slots = new Int32Array(capacity).fill(-1)
  const mask = capacity - 1
  for (let r = 0; r < rankCount; r++) {
    if (tokens[r] === undefined) continue
    let slot = hashBytes(pool, offsets[r], offsets[r + 1]) & mask
    while (slots[slot] >= 0) slot = (slot + 1) & mask
    slots[slot] = r
  }
  return { rankCount, offsets, pool, slots, patStr: json.pat_str, specialTokens: json.special_tokens }
}

/** The table as the bytes of a `.bin` file (see the layout above). */
export function serializeRankTable(table: RankTable): Uint8Array {
  const meta = Buffer.from(JSON.stringify({ pat_str: table.patStr, special_tokens: table.specialTokens }))
  const poolPadded = align4(table.pool.length)
  const total = 4 * (HEADER_WORDS + table.offsets.length + table.slots.length) + poolPadded + meta.length
  const bytes = new Uint8Array(total)
  const words = new Uint32Array(bytes.buffer, 0, HEADER_WORDS)
  words.set([MAGIC, VERSION, table.rankCount, table.slots.length, table.pool.length, meta.length])
  let at = 4 * HEADER_WORDS
  bytes.set(new Uint8Array(table.offsets.buffer, table.offsets.byteOffset, table.offsets.byteLength), at)
  at += table.offsets.byteLength
  bytes.set(new Uint8Array(table.slots.buffer, table.slots.byteOffset, table.slots.byteLength), at)
  at += table.slots.byteLength
  bytes.set(table.pool, at)
  at += poolPadded
  bytes.set(meta, at)
  return bytes
}

/** Reads a `.bin` file's bytes as views (no copy); undefined when they are not a table of this format. */
export function deserializeRankTable(file: Uint8Array): RankTable | undefined {
  if (file.byteOffset % 4 !== 0) file = file.slice()
  if (file.length < 4 * HEADER_WORDS) return undefined
  const [magic, version, rankCount, capacity, poolBytes, metaBytes] = new Uint32Array(
    file.buffer,
    file.byteOffset,
    HEADER_WORDS,
  )
  if (magic !== MAGIC || version !== VERSION) return undefined
  let at = file.byteOffset + 4 * HEADER_WORDS
  const expected = 4 * (HEADER_WORDS + rankCount + 1 + capacity) + align4(poolBytes) + metaBytes
  if (file.length !== expected) return undefined
  const offsets = new Uint32Array(file.buffer, at, rankCount + 1)
  at += 4 * (rankCount + 1)
  const slots = new Int32Array(file.buffer, at, capacity)
  at += 4 * capacity
  const pool = new Uint8Array(file.buffer, at, poolBytes)
  at += align4(poolBytes)
  const meta = JSON.parse(Buffer.from(file.buffer, at, metaBytes).toString('utf8')) as EncoderJson
  return { rankCount, offsets, pool, slots, patStr: meta.pat_str, specialTokens: meta.special_tokens }
}

function align4(n: number): number {
  return (n + 3) & ~3
}

/**
 * The prebuilt table file for an encoding, beside this module once built.
 * @public (scripts/tokenizer-tables.mjs writes it, importing the built module)
 */
export function rankTableFile(encoding: string): URL {
  return new URL(`./tables/${encoding}.bin`, import.meta.url)
}

/** The table for a tiktoken encoding: the prebuilt file when there is one, else built from tiktoken's data. */
export function loadRankTable(encoding: string): RankTable {
  const file = rankTableFile(encoding)
  if (existsSync(file)) {
    const table = deserializeRankTable(readFileSync(file))
    if (table !== undefined) return table
  }
  return buildRankTable(readEncoderJson(encoding))
}

export function readEncoderJson(encoding: string): EncoderJson {
  const path = createRequire(import.meta.url).resolve(`tiktoken/encoders/${encoding}.json`)
  return JSON.parse(readFileSync(path, 'utf8')) as EncoderJson
}
