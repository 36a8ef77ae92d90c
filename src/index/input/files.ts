/**
 * Finding input files and their creation dates. Files are listed recursively in sorted relative-path
 * order (the reference uses filesystem order, which is not deterministic) and selected with the
 * `input.file_pattern` regular expression, searched in the relative and the absolute path.
 */
import { readdir, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { ConfigError } from '../../errors.js'
import { unlessAbsent } from '../../storage/fs-errors.js'
import { syncRemoteInput } from '../../storage/object/remote-index.js'

export const DEFAULT_FILE_PATTERNS = {
  text: '.*\\.txt$',
  csv: '.*\\.csv$',
  json: '.*\\.json$',
  jsonl: '.*\\.jsonl$',
  parquet: '.*\\.parquet$',
  markitdown: '.*\\.(md|markdown|txt)$',
  pdf: '.*\\.(pdf|PDF)$',
  docx: '.*\\.(docx|DOCX)$',
  xlsx: '.*\\.(xlsx|XLSX)$',
  html: '.*\\.(html?|HTML?|xhtml)$',
  // Every extension AUTO_READERS knows, in either case.
  auto: '.*\\.(txt|md|markdown|csv|json|jsonl|parquet|pdf|docx|xlsx|html?|xhtml|TXT|MD|CSV|JSON|JSONL|PARQUET|PDF|DOCX|XLSX|HTML?)$',
} as const

/** `input.type: auto`: the reader for each file extension (lower-cased). */
export const AUTO_READERS = {
  txt: 'text',
  md: 'text',
  markdown: 'text',
  csv: 'csv',
  json: 'json',
  jsonl: 'jsonl',
  parquet: 'parquet',
  pdf: 'pdf',
  docx: 'docx',
  xlsx: 'xlsx',
  htm: 'html',
  html: 'html',
  xhtml: 'html',
} as const

/** Compiles a Python-style pattern (`(?P<name>…)` groups are accepted). */
export function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'))
  } catch (cause) {
    throw new ConfigError(`input.file_pattern: not a valid regular expression: ${(cause as Error).message}`, {
      keyPath: 'input.file_pattern',
      cause,
    })
  }
}

/** Relative paths (with `/`) of the files under `baseDir` matching `pattern`, sorted. */
export async function listInputFiles(baseDir: string, pattern: RegExp): Promise<string[]> {
  return (await partitionInputFiles(baseDir, pattern)).matched
}

/**
 * The files under `baseDir` that match `pattern` and those that do not (hidden files such as
 * .DS_Store left out), both sorted; the loader names the second in one notice.
 */
export async function partitionInputFiles(
  baseDir: string,
  pattern: RegExp,
): Promise<{ matched: string[]; unmatched: string[] }> {
  // input_storage in a container or bucket: its local mirror is brought up to date first.
  await syncRemoteInput(baseDir)
  const files = (await walk(baseDir))
    .map((abs) => ({ abs, rel: relative(baseDir, abs).split(sep).join('/') }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
  const matched: string[] = []
  const unmatched: string[] = []
  for (const { abs, rel } of files) {
    if (pattern.test(rel) || pattern.test(abs)) matched.push(rel)
    else if (!rel.split('/').some((part) => part.startsWith('.'))) unmatched.push(rel)
  }
  return { matched, unmatched }
}

async function walk(dir: string): Promise<string[]> {
  // An absent folder holds no files; an unreadable one is an error, not an empty input.
  const entries = await unlessAbsent(dir, 'read input folder', () => readdir(dir, { withFileTypes: true }), [])
  const out: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await walk(path)))
    else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileLink(path)))) out.push(path)
  }
  return out
}

/** A link to a file counts as a file; a dangling link too, so that reading it reports the problem. */
async function isFileLink(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return true
  }
}

/** A file time as Python's `strftime("%Y-%m-%d %H:%M:%S %z")` in the local time zone. */
export function formatCreationDate(time: Date): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
  const offset = -time.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  const abs = Math.abs(offset)
  return (
    `${pad(time.getFullYear(), 4)}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ` +
    `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  )
}
