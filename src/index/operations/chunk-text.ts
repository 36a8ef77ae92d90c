/**
 * create_base_text_units (spec reference-index.md §5.2): documents → text units. The `tokens`
 * chunker cuts token windows of `size` advancing by `size - overlap`; the `sentence` chunker gives
 * one unit per sentence. `prepend_metadata` fields are written as `key: value.` lines before each
 * chunk; they do not count against `size` but do count in `n_tokens`. Ids are SHA-512 of the text.
 */
import { createHash } from 'node:crypto'
import { ConfigError } from '../../errors.js'
import type { InputDocumentRow } from '../../model/documents.js'
import type { JsonValue } from '../../model/schema.js'
import type { BaseTextUnitRow } from '../../model/text-units.js'
import type { Tokenizer } from '../../llm/tokenizer.js'
import { splitSentences, stripPython } from './split-sentences.js'
import { countDecodedWindow, encodeInPieces } from './token-pieces.js'

export interface ChunkingOptions {
  readonly type: 'tokens' | 'sentence'
  readonly size: number
  readonly overlap: number
  readonly prepend_metadata: readonly string[] | null
}

type ChunkSource = Pick<InputDocumentRow, 'id' | 'title' | 'text' | 'creation_date' | 'raw_data'>

/**
 * Token windows over `text`, decoded (split multi-byte characters become U+FFFD, as in Python). The
 * text is encoded piece by piece (`encodeInPieces`), and only the tokens of the current window and
 * piece are held, so memory does not grow with the document; the windows are those of whole-text
 * encoding, token for token.
 */
export function splitOnTokens(
  text: string,
  size: number,
  overlap: number,
  tokenizer: Tokenizer,
  pieceLength?: number,
): string[] {
  return [...tokenWindows(text, size, overlap, tokenizer, pieceLength)]
}

/** splitOnTokens one window at a time, so a caller can give the event loop back inside a long document. */
function* tokenWindows(
  text: string,
  size: number,
  overlap: number,
  tokenizer: Tokenizer,
  pieceLength?: number,
): Generator<string> {
  for (const window of windowTokens(text, size, overlap, tokenizer, pieceLength)) yield tokenizer.decode(window)
}

/** The tokens of each window (views: the caller does not keep them past the next window). */
function* windowTokens(
  text: string,
  size: number,
  overlap: number,
  tokenizer: Tokenizer,
  pieceLength?: number,
): Generator<Uint32Array> {
  if (overlap >= size) {
    throw new ConfigError(`chunking.overlap (${overlap}) must be smaller than chunking.size (${size})`, {
      keyPath: 'chunking.overlap',
    })
  }
  const step = size - overlap
  let tokens = new Uint32Array(0)
  let start = 0
  for (const piece of encodeInPieces(text, tokenizer, pieceLength)) {
    const kept = tokens.subarray(start)
    tokens = new Uint32Array(kept.length + piece.length)
    tokens.set(kept)
    tokens.set(piece, kept.length)
    start = 0
    // A window that ends before the tokens seen so far is not the last one, whatever follows.
    for (; start + size < tokens.length; start += step) yield tokens.subarray(start, start + size)
  }
  for (; start < tokens.length; start += step) {
    const end = Math.min(start + size, tokens.length)
    yield tokens.subarray(start, end)
    if (end === tokens.length) break
  }
}

/** Python's `str()` of a metadata value. */
function pyStr(value: JsonValue): string {
  if (typeof value === 'string') return value
  return pyRepr(value)
}

function pyRepr(value: JsonValue): string {
  if (value === null) return 'None'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') {
    const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t')
    return value.includes("'") && !value.includes('"') ? `"${escaped}"` : `'${escaped.replace(/'/g, "\\'")}'`
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`
  return `{${Object.entries(value)
    .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
    .join(', ')}}`
}

/** The `key: value.\n` prefix for a document; fields whose value is absent or null are left out. */
export function metadataPrefix(doc: ChunkSource, fields: readonly string[] | null): string {
  let prefix = ''
  for (const field of fields ?? []) {
    const value = lookup(doc, field)
    if (value !== undefined && value !== null) prefix += `${field}: ${pyStr(value)}.\n`
  }
  return prefix
}

function lookup(doc: ChunkSource, field: string): JsonValue | undefined {
  if (field === 'id' || field === 'title' || field === 'text' || field === 'creation_date') return doc[field]
  let current: JsonValue | undefined = doc.raw_data
  for (const key of field.split('.')) {
    const object = asObject(current)
    if (object === undefined) return undefined
    current = Object.hasOwn(object, key) ? object[key] : undefined
  }
  return current
}

/**
 * Nested objects in raw_data come back from the documents Parquet table as JSON text (the table
 * stores one level of struct), so a dot path also descends into such a string.
 */
function asObject(value: JsonValue | undefined): { [key: string]: JsonValue } | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value
  if (typeof value !== 'string' || !value.startsWith('{')) return undefined
  try {
    const parsed = JSON.parse(value) as JsonValue
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The text units of one document, in order. */
export function chunkDocument(doc: ChunkSource, options: ChunkingOptions, tokenizer: Tokenizer): BaseTextUnitRow[] {
  return [...documentUnits(doc, options, tokenizer)]
}

/** chunkDocument one text unit at a time (the workflow yields to the event loop between them). */
export function* documentUnits(
  doc: ChunkSource,
  options: ChunkingOptions,
  tokenizer: Tokenizer,
): Generator<BaseTextUnitRow> {
  const prefix = metadataPrefix(doc, options.prepend_metadata)
  const unit = (text: string, tokens: number): BaseTextUnitRow => ({
    id: createHash('sha512').update(text, 'utf8').digest('hex'),
    document_id: doc.id,
    text,
    n_tokens: tokens,
  })
  if (options.type === 'sentence') {
    for (const sentence of splitSentences(stripPython(doc.text))) {
      const text = prefix + sentence
      yield unit(text, tokenizer.count(text))
    }
    return
  }
  // n_tokens counts the unit's text as encoded again (not always the window's length: a window may
  // start or end inside a character or a word), with the window's own tokens standing in for its middle.
  for (const window of windowTokens(doc.text, options.size, options.overlap, tokenizer))
    yield unit(prefix + tokenizer.decode(window), countDecodedWindow(prefix, window, tokenizer))
}

/** Text units of all documents in table order; `onDocument` is called after each (progress). */
export function chunkDocuments(
  documents: readonly ChunkSource[],
  options: ChunkingOptions,
  tokenizer: Tokenizer,
): BaseTextUnitRow[] {
  const rows: BaseTextUnitRow[] = []
  for (const doc of documents) for (const row of chunkDocument(doc, options, tokenizer)) rows.push(row)
  return rows
}
