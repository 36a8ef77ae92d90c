/**
 * Byte-level BPE with tiktoken's exact rules, in TypeScript over a {@link RankTable}:
 * - the text (lone surrogates replaced by U+FFFD, as tiktoken's UTF-8 conversion does) is split by the
 *   encoding's own pre-tokenizer pattern, translated from Rust regex syntax to a JS `u` regex;
 * - a piece that is a token is that token; otherwise its UTF-8 bytes are merged as tiktoken's
 *   `byte_pair_merge` does: repeatedly join the adjacent pair whose joined bytes have the lowest
 *   rank, the leftmost on ties, until no joined pair is a token.
 * Short pieces use tiktoken's own linear scan; long ones (a run of 50,000 letters) a heap over a
 * linked list, so a piece costs O(n log n) rather than O(n²).
 */
import { lookupRank, type RankTable } from './rank-table.js'

/** Pieces up to this many bytes use the linear scan, longer ones the heap. */
const LINEAR_MERGE_MAX = 128
/** Pieces whose tokens are remembered; the memo is dropped when it reaches this size. */
const MEMO_LIMIT = 50_000
const NONE = 0x7fffffff
/** Largest UTF-8 scratch buffer kept between calls. */
const SCRATCH_KEEP = 1 << 20

/** ES2024 string methods (Node 20 has them; the ES2023 lib this project compiles against does not). */
interface WellFormable {
  isWellFormed(): boolean
  toWellFormed(): string
}

/**
 * The pre-tokenizer as a JS regex: `\s`/`\S` become Unicode White_Space (what Rust's `\s` means; JS's
 * `\s` adds U+FEFF and drops U+0085), and the case-insensitive contraction group `(?i:'s|…)`, which
 * Node 20 cannot parse, spells out each letter's case variants (Unicode simple case folding, as Rust's
 * regex does, so `s` also matches `ſ`; no other contraction letter has a third variant).
 */
function preTokenizer(patStr: string): RegExp {
  const folded: Record<string, string> = { s: 'sSſ' }
  const source = patStr
    .replace(
      /\(\?i:([^()]*)\)/g,
      (_, body: string) => `(?:${body.replace(/[a-z]/g, (c) => `[${folded[c] ?? c + c.toUpperCase()}]`)})`,
    )
    .replaceAll('\\s', '\\p{White_Space}')
    .replaceAll('\\S', '\\P{White_Space}')
  return new RegExp(source, 'gu')
}

export class BytePairEncoder {
  private readonly pattern: RegExp
  private readonly specialBytes = new Map<number, Uint8Array>()
  private readonly memo = new Map<string, number[]>()
  private scratch = new Uint8Array(1024)
  // Reused by the merges.
  private starts = new Int32Array(256)
  private ranks = new Int32Array(256)

  constructor(private readonly table: RankTable) {
    this.pattern = preTokenizer(table.patStr)
    const utf8 = new TextEncoder()
    for (const [text, rank] of Object.entries(table.specialTokens)) this.specialBytes.set(rank, utf8.encode(text))
  }

  /** Tokens of `text`, special-token text included as ordinary text (tiktoken's `encode_ordinary`). */
  encode(text: string): number[] {
    const out: number[] = []
    const pattern = this.pattern
    const checked = text as unknown as WellFormable
    const source = checked.isWellFormed() ? text : checked.toWellFormed()
    pattern.lastIndex = 0
    for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
      const piece = match[0]
      const remembered = this.memo.get(piece)
      if (remembered !== undefined) {
        for (const token of remembered) out.push(token)
        continue
      }
      const length = this.utf8(piece)
      const whole = lookupRank(this.table, this.scratch, 0, length)
      if (whole >= 0) {
        out.push(whole)
        continue
      }
      const tokens = length <= LINEAR_MERGE_MAX ? this.mergeLinear(length) : this.mergeHeap(length)
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear()
      this.memo.set(piece, tokens)
      for (const token of tokens) out.push(token)
    }
    // One huge piece (a long run of letters) needed a huge buffer: do not keep it for the next text.
    if (this.scratch.length > SCRATCH_KEEP) this.scratch = new Uint8Array(1024)
    return out
  }

  /** One token's bytes (a view, not a copy); throws on an id the encoding does not have. */
  tokenBytes(token: number): Uint8Array {
    const { offsets, pool, rankCount } = this.table
    if (token >= 0 && token < rankCount && offsets[token] < offsets[token + 1])
      return pool.subarray(offsets[token], offsets[token + 1])
    const special = this.specialBytes.get(token)
    if (special === undefined) throw new RangeError(`token ${token} is not in this encoding`)
    return special
  }

  /** The bytes of `tokens` (special tokens as their text); throws on an id the encoding does not have. */
  decodeBytes(tokens: ArrayLike<number>): Uint8Array {
    const { offsets, pool, rankCount } = this.table
    let bytes = new Uint8Array(Math.max(64, tokens.length * 4))
    let at = 0
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]
      let source = pool
      let from = 0
      let to = 0
      if (token >= 0 && token < rankCount && offsets[token] < offsets[token + 1]) {
        from = offsets[token]
        to = offsets[token + 1]
      } else {
        const special = this.specialBytes.get(token)
        if (special === undefined) throw new RangeError(`token ${token} is not in this encoding`)
        source = special
        to = special.length
      }
      if (at + to - from > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, at + to - from))
        grown.set(bytes.subarray(0, at))
        bytes = grown
      }
      while (from < to) bytes[at++] = source[from++]
    }
    return bytes.subarray(0, at)
  }

  /** Writes `piece` as UTF-8 into the scratch buffer (well-formed input), returning its byte length. */
  private utf8(piece: string): number {
    if (this.scratch.length < piece.length * 3) this.scratch = new Uint8Array(piece.length * 3)
    const bytes = this.scratch
    let at = 0
    for (let i = 0; i < piece.length; i++) {
      let c = piece.charCodeAt(i)
      if (c < 0x80) bytes[at++] = c
      else if (c < 0x800) {
        bytes[at++] = 0xc0 | (c >> 6)
        bytes[at++] = 0x80 | (c & 63)
      } else if (c >= 0xd800 && c < 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (piece.charCodeAt(++i) - 0xdc00)
        bytes[at++] = 0xf0 | (c >> 18)
        bytes[at++] = 0x80 | ((c >> 12) & 63)
        bytes[at++] = 0x80 | ((c >> 6) & 63)
        bytes[at++] = 0x80 | (c & 63)
      } else {
        bytes[at++] = 0xe0 | (c >> 12)
        bytes[at++] = 0x80 | ((c >> 6) & 63)
        bytes[at++] = 0x80 | (c & 63)
      }
    }
    return at
  }

  /** The rank of bytes[from, to) of the current piece, or NONE. */
  private rankOf(from: number, to: number): number {
    const rank = lookupRank(this.table, this.scratch, from, to)
    return rank < 0 ? NONE : rank
  }

  /** tiktoken's `byte_pair_merge`: parts as start offsets, each with the rank of joining it to the next. */
  private mergeLinear(length: number): number[] {
    if (this.starts.length < length + 1) {
      this.starts = new Int32Array(length + 1)
      this.ranks = new Int32Array(length + 1)
    }
    const starts = this.starts
    const ranks = this.ranks
    let parts = length + 1
    for (let i = 0; i <= length; i++) starts[i] = i
    for (let i = 0; i < length - 1; i++) ranks[i] = this.rankOf(i, i + 2)
    ranks[length - 1] = NONE
    ranks[length] = NONE
    for (;;) {
      let best = NONE
      let at = -1
      for (let i = 0; i < parts - 1; i++) {
        if (ranks[i] < best) {
          best = ranks[i]
          at = i
        }
      }
      if (at < 0) break
      // Join part `at` with part `at + 1`, then re-rank the joins on either side.
      starts.copyWithin(at + 1, at + 2, parts)
      ranks.copyWithin(at + 1, at + 2, parts)
      parts--
      ranks[at] = at + 2 < parts ? this.rankOf(starts[at], starts[at + 2]) : NONE
      if (at > 0) ranks[at - 1] = this.rankOf(starts[at - 1], starts[at + 1])
    }
    const tokens: number[] = []
    for (let i = 0; i < parts - 1; i++) tokens.push(lookupRank(this.table, this.scratch, starts[i], starts[i + 1]))
    return tokens
  }

  /**
   * The same merge for a long piece: parts in a linked list, candidate joins in a min-heap keyed by
   * (rank, start offset), so ties still go to the leftmost. A joined byte string never shrinks, and
   * distinct byte strings have distinct ranks, so a heap entry is current iff its part still starts
   * a part and still has that rank.
   */
  private mergeHeap(length: number): number[] {
    const next = new Int32Array(length + 1)
    const prev = new Int32Array(length + 1)
    const rank = new Int32Array(length + 1)
    const alive = new Uint8Array(length + 1).fill(1)
    for (let i = 0; i <= length; i++) {
      next[i] = i + 1
      prev[i] = i - 1
    }
    const heap = new MinHeap(length)
    const span = (start: number): number => {
      const second = next[start]
      if (second >= length) return NONE
      return this.rankOf(start, next[second])
    }
    for (let i = 0; i < length - 1; i++) {
      rank[i] = this.rankOf(i, i + 2)
      if (rank[i] !== NONE) heap.push(rank[i] * 4294967296 + i)
    }
    rank[length - 1] = NONE
    while (heap.size > 0) {
      const key = heap.pop()
      const start = key % 4294967296
      const r = (key - start) / 4294967296
      if (!alive[start] || rank[start] !== r) continue
      const gone = next[start]
      alive[gone] = 0
      next[start] = next[gone]
      prev[next[gone]] = start
      rank[start] = span(start)
      if (rank[start] !== NONE) heap.push(rank[start] * 4294967296 + start)
      const before = prev[start]
      if (before >= 0) {
        rank[before] = span(before)
        if (rank[before] !== NONE) heap.push(rank[before] * 4294967296 + before)
      }
    }
    const tokens: number[] = []
    for (let i = 0; i < length; i = next[i]) tokens.push(lookupRank(this.table, this.scratch, i, next[i]))
    return tokens
  }
}

/** A binary min-heap of non-negative doubles. */
class MinHeap {
  private items: Float64Array
  size = 0

  constructor(capacity: number) {
    this.items = new Float64Array(Math.max(capacity, 16))
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2)
      grown.set(this.items)
      this.items = grown
    }
    const items = this.items
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent] <= value) break
      items[i] = items[parent]
      i = parent
    }
    items[i] = value
  }

  pop(): number {
    const items = this.items
    const top = items[0]
    const last = items[--this.size]
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= this.size) break
      if (child + 1 < this.size && items[child + 1] < items[child]) child++
      if (items[child] >= last) break
      items[i] = items[child]
      i = child
    }
    items[i] = last
    return top
  }
}
