/**
 * load_input_documents (spec reference-index.md §5.1): reads every matching input file in sorted
 * order with the reader of `input.type`. A file that cannot be read, is not text, or lacks the text
 * column is reported through `onWarning` and skipped; zero documents is an InputError.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { InputError } from '../../errors.js'
import type { InputDocumentRow } from '../../model/documents.js'
import { readCsv } from './csv.js'
import { readText, textDecoderFor, UnreadableTextError, type TextDecodeFn } from './decode-text.js'
import { compilePattern, DEFAULT_FILE_PATTERNS, formatCreationDate, listInputFiles } from './files.js'
import { readJson } from './json.js'
import { readJsonl } from './jsonl.js'
import { assertMarkdownReadable, readMarkdown } from './markdown.js'
import { readParquet } from './parquet.js'
import type { ColumnOptions, FileDocuments } from './rows.js'
import { readTextFile } from './text.js'

type InputType = keyof typeof DEFAULT_FILE_PATTERNS

/** The `input` settings section, plus the (absolute) folder to read from. */
export interface LoadOptions {
  readonly baseDir: string
  readonly type: InputType
  readonly encoding: string | null
  readonly file_pattern: string | null
  readonly id_column: string | null
  readonly title_column: string | null
  readonly text_column: string | null
}

export interface LoadReport {
  /** A file or row that was skipped, with the reason; the caller prints and counts it. */
  onWarning(message: string): void
  /** Called after each file (for progress). */
  onFile?(): void
  /** Called once the files are listed. */
  onListed?(count: number): void
}

export interface LoadResult {
  readonly documents: InputDocumentRow[]
  readonly filesRead: number
  readonly filesSkipped: number
}

export async function loadDocuments(options: LoadOptions, report: LoadReport): Promise<LoadResult> {
  const decode = textDecoderFor(options.encoding)
  const pattern = options.file_pattern ?? DEFAULT_FILE_PATTERNS[options.type]
  const files = await listInputFiles(options.baseDir, compilePattern(pattern))
  report.onListed?.(files.length)
  const columns: ColumnOptions = {
    idColumn: options.id_column,
    titleColumn: options.title_column,
    textColumn: options.text_column ?? 'text',
  }
  const documents: InputDocumentRow[] = []
  let filesSkipped = 0
  for (const path of files) {
    try {
      const result = await readOne(options.baseDir, path, options.type, decode, columns)
      for (const warning of result.warnings) report.onWarning(warning)
      for (const doc of result.documents) documents.push({ ...doc, human_readable_id: documents.length })
    } catch (error) {
      if (!(error instanceof UnreadableTextError || isFsError(error))) throw error
      filesSkipped++
      report.onWarning(`skipped input file ${path}: ${reason(error)}`)
    }
    report.onFile?.()
  }
  if (documents.length === 0) {
    const found = files.length === 0 ? 'no files match' : `none of the ${files.length} matching file(s) gave a document`
    throw new InputError(`no input documents in ${options.baseDir} (file_pattern ${pattern}, type ${options.type}): ${found}`, {
      file: options.baseDir,
    })
  }
  return { documents, filesRead: files.length - filesSkipped, filesSkipped }
}

async function readOne(baseDir: string, path: string, type: InputType, decode: TextDecodeFn, columns: ColumnOptions): Promise<FileDocuments> {
  const full = join(baseDir, path)
  if (type === 'markitdown') assertMarkdownReadable(path)
  const bytes = await readFile(full)
  const creationDate = formatCreationDate((await stat(full)).ctime)
  if (type === 'parquet') return readParquet(bytes, path, creationDate, columns)
  const text = readText(bytes, decode)
  switch (type) {
    case 'text':
      return readTextFile(text, path, creationDate)
    case 'markitdown':
      return readMarkdown(text, path, creationDate)
    case 'csv':
      return readCsv(text, path, creationDate, columns)
    case 'json':
      return readJson(text, path, creationDate, columns)
    case 'jsonl':
      return readJsonl(text, path, creationDate, columns)
  }
}

function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined
}

function reason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'is a directory'
  if (code === 'ENOENT') return 'cannot read: file or link target not found'
  return code !== undefined && isFsError(error) ? `cannot read (${code})` : error.message
}
