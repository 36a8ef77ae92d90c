/**
 * load_input_documents (spec reference-index.md §5.1): reads every matching input file in sorted
 * order with the reader of `input.type` (or, for `auto`, of each file's extension). A file that
 * cannot be read, is not text, is empty, gives no document or lacks the text column is reported
 * through `onWarning` and skipped; files the pattern leaves out are named in one notice; zero
 * documents is an InputError.
 */
import { InputError } from '../../errors.js'
import type { InputDocumentRow } from '../../model/documents.js'
import { textDecoderFor, UnreadableTextError } from './decode-text.js'
import { compilePattern, DEFAULT_FILE_PATTERNS, partitionInputFiles } from './files.js'
import { readInputFile, type InputType, type ReadOptions } from './read-file.js'

/** The `input` settings section, plus the (absolute) folder to read from. */
export interface LoadOptions {
  readonly baseDir: string
  readonly type: InputType
  readonly encoding: string | null
  readonly file_pattern: string | null
  readonly id_column: string | null
  readonly title_column: string | null
  readonly text_column: string | null
  /** What one zip-based file (.docx, .xlsx) may inflate to. */
  readonly max_unzipped_mb: number
}

export interface LoadReport {
  /** A file or row that was skipped, with the reason; the caller prints and counts it. */
  onWarning(message: string): void
  /** Input files left out by `input.type`/`file_pattern`, named in one message (not counted as a warning). */
  onNotice?(message: string): void
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
  const pattern = options.file_pattern ?? DEFAULT_FILE_PATTERNS[options.type]
  const { matched: files, unmatched } = await partitionInputFiles(options.baseDir, compilePattern(pattern))
  if (unmatched.length > 0)
    report.onNotice?.(unmatchedNotice(unmatched, options.type, pattern, options.file_pattern !== null))
  report.onListed?.(files.length)
  const read = readOptionsFor(options)
  const documents: InputDocumentRow[] = []
  let filesSkipped = 0
  for (const path of files) {
    try {
      const result = await readInputFile(options.baseDir, path, options.type, read)
      for (const warning of result.warnings) report.onWarning(warning)
      // A file with no rows (a header-only csv, an empty jsonl or json array) counts as skipped, not read.
      if (result.documents.length === 0)
        throw new UnreadableTextError(result.warnings.length > 0 ? 'every row was skipped' : 'no rows')
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
    throw new InputError(
      `no input documents in ${options.baseDir} (file_pattern ${pattern}, type ${options.type}): ${found}`,
      {
        file: options.baseDir,
      },
    )
  }
  return { documents, filesRead: files.length - filesSkipped, filesSkipped }
}

/** How each input file is read under these settings (shared with the server, which reads one uploaded file at a time). */
export function readOptionsFor(options: LoadOptions): ReadOptions {
  return {
    decode: textDecoderFor(options.encoding),
    encoding: options.encoding,
    encodingSet: options.encoding !== null,
    columns: {
      idColumn: options.id_column,
      titleColumn: options.title_column,
      textColumn: options.text_column ?? 'text',
    },
    textColumnSet: options.text_column !== null,
    zip: { maxBytes: options.max_unzipped_mb * 2 ** 20 },
  }
}

const NOTICE_NAMES = 10

function unmatchedNotice(files: readonly string[], type: InputType, pattern: string, ownPattern: boolean): string {
  const names =
    files.slice(0, NOTICE_NAMES).join(', ') +
    (files.length > NOTICE_NAMES ? `, and ${files.length - NOTICE_NAMES} more` : '')
  const why =
    type === 'auto'
      ? `no reader for their type (file_pattern ${pattern})`
      : `they do not match input.type ${type} (file_pattern ${pattern})`
  const hint = type === 'auto' || ownPattern ? '' : '; set input.type: auto to read every supported format'
  return `${files.length} input file(s) not read, ${why}: ${names}${hint}`
}

/** An error of a file-system call (a code and a syscall): the file is skipped, not the run failed. */
export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    (error as NodeJS.ErrnoException).syscall !== undefined
  )
}

function reason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'is a directory'
  if (code === 'ENOENT') return 'cannot read: file or link target not found'
  return code !== undefined && isFsError(error) ? `cannot read (${code})` : error.message
}
