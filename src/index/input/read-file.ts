/**
 * Reads one input file with the reader of its type; `auto` picks the reader by file extension. A
 * file that cannot be used throws UnreadableTextError (or a file-system error) with the reason.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { ConfigError } from '../../errors.js'
import { readCsv } from './csv.js'
import { fileDecoding, readText, textDecoderFor, UnreadableTextError, type TextDecodeFn } from './decode-text.js'
import { readDocx } from './docx.js'
import { AUTO_READERS, type DEFAULT_FILE_PATTERNS, formatCreationDate } from './files.js'
import { readHtml } from './html.js'
import { readJson } from './json.js'
import { readJsonl } from './jsonl.js'
import { assertMarkdownReadable, readMarkdown } from './markdown.js'
import { readParquet } from './parquet.js'
import { readPdf } from './pdf.js'
import type { ColumnOptions, FileDocuments } from './rows.js'
import { readTextFile } from './text.js'
import { readXlsx } from './xlsx.js'
import { checkZipExpansion, type ZipLimits } from './zip-expansion.js'

export type InputType = keyof typeof DEFAULT_FILE_PATTERNS
type FileType = Exclude<InputType, 'auto'>

export interface ReadOptions {
  readonly decode: TextDecodeFn
  /** input.encoding as written (null: utf-8), for the BOM check and the warnings. */
  readonly encoding: string | null
  /** False when `input.encoding` is not set: an HTML file's own `<meta charset>` then decides. */
  readonly encodingSet: boolean
  readonly columns: ColumnOptions
  /** False when `input.text_column` is not set: xlsx files are then read whole, not row by row. */
  readonly textColumnSet: boolean
  readonly zip: ZipLimits
}

/** The reader `auto` uses for `path`, by its extension. */
function autoType(path: string): FileType {
  const extension = posix.extname(path).slice(1).toLowerCase()
  const type = (AUTO_READERS as Record<string, FileType>)[extension]
  if (type === undefined) throw new UnreadableTextError(`no reader for ".${extension}" files`)
  return type
}

// Formats MarkItDown converts that have a reader of their own, so a Microsoft GraphRAG markitdown setup reads them.
const CONVERTED: ReadonlySet<FileType> = new Set(['pdf', 'docx', 'xlsx', 'html'])

function fileType(path: string, inputType: InputType): FileType {
  if (inputType === 'auto') return autoType(path)
  if (inputType !== 'markitdown') return inputType
  const own = (AUTO_READERS as Record<string, FileType>)[posix.extname(path).slice(1).toLowerCase()]
  if (own !== undefined && CONVERTED.has(own)) return own
  assertMarkdownReadable(path)
  return 'markitdown'
}

export async function readInputFile(
  baseDir: string,
  path: string,
  inputType: InputType,
  options: ReadOptions,
): Promise<FileDocuments> {
  const type = fileType(path, inputType)
  const full = join(baseDir, path)
  const bytes = await readFile(full)
  const creationDate = formatCreationDate((await stat(full)).ctime)
  if (bytes.length === 0) throw new UnreadableTextError('empty file')
  const { columns } = options
  switch (type) {
    case 'parquet':
      return readParquet(bytes, path, creationDate, columns)
    case 'pdf':
      return readPdf(bytes, path, creationDate)
    case 'docx':
      checkZipExpansion(bytes, '.docx', options.zip)
      return readDocx(bytes, path, creationDate)
    case 'xlsx':
      checkZipExpansion(bytes, '.xlsx', options.zip)
      return readXlsx(bytes, path, creationDate, options.textColumnSet ? columns : null)
  }
  const decoding = fileDecoding(bytes, options.decode, options.encoding)
  // Without a BOM and without input.encoding, an HTML page's own <meta charset> decides.
  const byPage = !decoding.byMark && type === 'html' && !options.encodingSet
  const text = readText(bytes, byPage ? htmlDecoder(bytes, options.decode) : decoding.decode)
  const read = readTextType(type, text, path, creationDate, columns)
  return decoding.doubt === undefined ? read : { ...read, warnings: [`${path}: ${decoding.doubt}`, ...read.warnings] }
}

function readTextType(
  type: Exclude<FileType, 'parquet' | 'pdf' | 'docx' | 'xlsx'>,
  text: string,
  path: string,
  creationDate: string,
  columns: ColumnOptions,
): FileDocuments {
  switch (type) {
    case 'text':
      return readTextFile(text, path, creationDate)
    case 'markitdown':
      return readMarkdown(text, path, creationDate)
    case 'html':
      return readHtml(text, path, creationDate)
    case 'csv':
      return readCsv(text, path, creationDate, columns)
    case 'json':
      return readJson(text, path, creationDate, columns)
    case 'jsonl':
      return readJsonl(text, path, creationDate, columns)
  }
}

/** The decoder an HTML page declares in its first 1024 bytes (as browsers look for it), else `fallback`. */
function htmlDecoder(bytes: Uint8Array, fallback: TextDecodeFn): TextDecodeFn {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024))
  const charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase()
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return fallback
  try {
    return textDecoderFor(charset)
  } catch (error) {
    // An unknown label is not a settings error here (the user did not write it): read as the default.
    if (!(error instanceof ConfigError)) throw error
    return fallback
  }
}
