/**
 * Checks an uploaded file by its content, not only its name: a `.pdf` must start like a PDF, a
 * `.docx`/`.xlsx` must be a zip holding the Office part its reader needs, a `.parquet` must carry
 * Parquet's magic bytes, and the text formats must look like text (no NUL bytes outside UTF-16).
 * Zip-based files whose entries declare more than `maxExpandedBytes` uncompressed are refused
 * before anything inflates them (the readers cap real expansion too).
 */
import { unzipSync } from 'fflate'
import { AUTO_READERS } from '../index/input/files.js'

export type UploadKind = (typeof AUTO_READERS)[keyof typeof AUTO_READERS]

export type SniffResult = { ok: true; kind: UploadKind } | { ok: false; status: 413 | 415; reason: string }

const SNIFF_BYTES = 8192

/** Starts of binary formats that are never text, whatever the extension says. */
const BINARY_MAGIC: Array<[string, number[]]> = [
  ['a zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['a PDF', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['an executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['an executable', [0x4d, 0x5a]],
  ['a gzip archive', [0x1f, 0x8b]],
  ['a Parquet file', [0x50, 0x41, 0x52, 0x31]],
]

/** The part each Office reader opens (a zip without it is some other file renamed). */
const OFFICE_PART: Partial<Record<UploadKind, string>> = { docx: 'word/document.xml', xlsx: 'xl/workbook.xml' }

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b)

/** The reader a file name asks for (by extension), or undefined when no reader takes it. */
export function kindOfName(name: string): UploadKind | undefined {
  const dot = name.lastIndexOf('.')
  if (dot < 0) return undefined
  return (AUTO_READERS as Record<string, UploadKind>)[name.slice(dot + 1).toLowerCase()]
}

export function sniffUpload(name: string, bytes: Uint8Array, maxExpandedBytes: number): SniffResult {
  const kind = kindOfName(name)
  if (kind === undefined)
    return { ok: false, status: 415, reason: `no reader for this file type (${Object.keys(AUTO_READERS).join(', ')})` }
  if (bytes.length === 0) return { ok: false, status: 415, reason: 'the file is empty' }
  const refuse = (reason: string): SniffResult => ({ ok: false, status: 415, reason })
  switch (kind) {
    case 'pdf':
      return startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])
        ? { ok: true, kind }
        : refuse('not a PDF (no %PDF- header)')
    case 'parquet':
      return bytes.length >= 8 &&
        startsWith(bytes, [0x50, 0x41, 0x52, 0x31]) &&
        startsWith(bytes, [0x50, 0x41, 0x52, 0x31], bytes.length - 4)
        ? { ok: true, kind }
        : refuse('not a Parquet file (no PAR1 magic)')
    case 'docx':
    case 'xlsx':
      return officeZip(kind, bytes, maxExpandedBytes)
    default:
      return looksLikeText(bytes) ?? { ok: true, kind }
  }
}

function officeZip(kind: UploadKind, bytes: Uint8Array, maxExpandedBytes: number): SniffResult {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]))
    return { ok: false, status: 415, reason: `not a .${kind} (not a zip archive)` }
  const entries: Array<{ name: string; size: number; originalSize: number }> = []
  try {
    // The filter sees each entry's declared sizes from the central directory and inflates nothing.
    unzipSync(bytes, {
      filter: (file) => {
        entries.push(file)
        return false
      },
    })
  } catch {
    return { ok: false, status: 415, reason: `not a .${kind} (the zip archive is damaged)` }
  }
  if (!entries.some((e) => e.name === OFFICE_PART[kind]))
    return { ok: false, status: 415, reason: `not a .${kind} (no ${OFFICE_PART[kind]} inside)` }
  const expanded = entries.reduce((sum, e) => sum + e.originalSize, 0)
  if (expanded > maxExpandedBytes)
    return {
      ok: false,
      status: 413,
      reason: `expands to ${expanded} bytes, more than ${maxExpandedBytes} (server.max_upload_expanded_bytes): a zip bomb or an unusually large document`,
    }
  return { ok: true, kind }
}

/** Undefined when the start of the file looks like text; else why not. */
function looksLikeText(bytes: Uint8Array): SniffResult | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES)
  // UTF-16 text has NUL bytes by design; its BOM says so.
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return undefined
  for (const [what, magic] of BINARY_MAGIC)
    if (startsWith(head, magic)) return { ok: false, status: 415, reason: `this is ${what}, not text` }
  if (head.includes(0)) return { ok: false, status: 415, reason: 'binary content (NUL bytes), not text' }
  return undefined
}
