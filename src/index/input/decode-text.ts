/**
 * Bytes → text for input files, as Python's text mode reads them: the named encoding, universal
 * newlines (CRLF and CR become LF) and a leading UTF-8 BOM kept as U+FEFF (stripped only by
 * `utf-8-sig`). Undecodable and binary-looking files are rejected with a reason, never indexed.
 */
import { ConfigError } from '../../errors.js'

/** Why a file's bytes are not usable text; the loader turns it into a warning naming the file. */
export class UnreadableTextError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'UnreadableTextError'
  }
}

export type TextDecodeFn = (bytes: Uint8Array) => string

/**
 * A decoder for a Python codec name (`utf-8`, `utf-8-sig`, `latin1`, `utf-16le`, `cp1252`, …).
 * Unknown names are a ConfigError on `input.encoding`, raised once before any file is read.
 */
export function textDecoderFor(encoding: string | null): TextDecodeFn {
  const name = codecName(encoding)
  if (['utf-8', 'utf8', 'u8'].includes(name)) return strict('utf-8', true, 'UTF-8')
  if (['utf-8-sig', 'utf8-sig'].includes(name)) return strict('utf-8', false, 'UTF-8')
  if (['latin1', 'latin-1', 'iso-8859-1', 'iso8859-1', 'l1'].includes(name)) return decodeLatin1
  if (['ascii', 'us-ascii'].includes(name)) return decodeAscii
  if (['utf-16le', 'utf-16-le'].includes(name)) return strict('utf-16le', true, 'UTF-16LE')
  if (['utf-16be', 'utf-16-be'].includes(name)) return strict('utf-16be', true, 'UTF-16BE')
  if (['utf-16', 'utf16'].includes(name)) return decodeUtf16
  // Node's TextDecoder decodes windows-1252 as latin1, so it gets its own table.
  if (['cp1252', 'windows-1252'].includes(name)) return decodeCp1252
  const label = /^cp\d+$/.test(name) ? `windows-${name.slice(2)}` : name
  try {
    new TextDecoder(label)
  } catch {
    throw new ConfigError(`input.encoding: unsupported encoding "${encoding}"`, { keyPath: 'input.encoding' })
  }
  return strict(label, true, encoding ?? label)
}

/** input.encoding as Python's codec lookup compares it: `UTF_8` and ` utf-8` are utf-8. */
function codecName(encoding: string | null): string {
  return (encoding ?? 'utf-8').trim().toLowerCase().replace(/_/g, '-')
}

function strict(label: string, keepBom: boolean, display: string): TextDecodeFn {
  const decoder = new TextDecoder(label, { fatal: true, ignoreBOM: keepBom })
  return (bytes) => {
    try {
      return decoder.decode(bytes)
    } catch {
      throw new UnreadableTextError(
        `not valid ${display} (${firstBadLine(bytes, label)}); set input.encoding if the file uses another encoding`,
      )
    }
  }
}

/** Where decoding first fails, as "line N", for the warning. */
function firstBadLine(bytes: Uint8Array, label: string): string {
  const text = new TextDecoder(label, { fatal: false, ignoreBOM: true }).decode(bytes)
  const at = text.indexOf('\uFFFD')
  if (at < 0) return 'truncated at the end'
  return `line ${text.slice(0, at).split(/\r\n?|\n/).length}`
}

function decodeLatin1(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192))
  return out
}

function decodeAscii(bytes: Uint8Array): string {
  const bad = bytes.findIndex((b) => b > 0x7f)
  if (bad >= 0) throw new UnreadableTextError(`not valid ASCII (byte 0x${bytes[bad]!.toString(16)} at offset ${bad})`)
  return decodeLatin1(bytes)
}

// Code points of bytes 0x80-0x9F in cp1252; 0 marks the five bytes Python's codec refuses.
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
]

function decodeCp1252(bytes: Uint8Array): string {
  const text = decodeLatin1(bytes)
  return text.replace(/[\u0080-\u009f]/g, (c) => {
    const code = CP1252_HIGH[c.charCodeAt(0) - 0x80]!
    if (code === 0) throw new UnreadableTextError(`not valid cp1252 (byte 0x${c.charCodeAt(0).toString(16)})`)
    return String.fromCharCode(code)
  })
}

/** Python's `utf-16`: a BOM picks the byte order and is removed; without one, little-endian. */
function decodeUtf16(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return strict('utf-16be', false, 'UTF-16')(bytes)
  return strict('utf-16le', false, 'UTF-16')(bytes)
}

export interface FileDecoding {
  readonly decode: TextDecodeFn
  /** True when a byte order mark chose the decoder (nothing else may override it, not even HTML's meta charset). */
  readonly byMark: boolean
  /** Why the text may be garbled although it decoded: the caller warns, naming the file. */
  readonly doubt?: string
}

const UTF8_NAMES = new Set(['utf-8', 'utf8', 'u8', 'utf-8-sig', 'utf8-sig'])
const UTF16_NAMES = new Set(['utf-16le', 'utf-16-le', 'utf-16be', 'utf-16-be', 'utf-16', 'utf16'])

/**
 * How one file is decoded: a byte order mark (UTF-8, UTF-16 LE/BE) decides for its file; a file
 * without one is read with `fallback` (input.encoding, `encoding` its name). A UTF-8 BOM under a
 * UTF-8 setting is left to `fallback`, which keeps it as U+FEFF as Python's utf-8 does (utf-8-sig drops it).
 */
export function fileDecoding(bytes: Uint8Array, fallback: TextDecodeFn, encoding: string | null): FileDecoding {
  const name = codecName(encoding)
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { decode: UTF8_NAMES.has(name) ? fallback : strict('utf-8', false, 'UTF-8'), byMark: true }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { decode: strict('utf-16le', false, 'UTF-16LE'), byMark: true }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { decode: strict('utf-16be', false, 'UTF-16BE'), byMark: true }
  const doubt = UTF8_NAMES.has(name) ? undefined : utf8Doubt(bytes, name, encoding ?? name)
  return { decode: fallback, byMark: false, doubt }
}

/**
 * A file that is valid UTF-8 but read with another encoding is most likely UTF-8 read wrongly (one
 * folder, several encodings): under UTF-16 any such file is garbled, under a single-byte encoding one
 * with non-ASCII bytes is (ASCII reads the same either way).
 */
function utf8Doubt(bytes: Uint8Array, name: string, display: string): string | undefined {
  const utf16 = UTF16_NAMES.has(name)
  if (!utf16 && bytes.every((b) => b < 0x80)) return undefined
  if (utf16 && bytes.includes(0)) return undefined
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
  return `read as ${display} (input.encoding), but it is valid UTF-8 and probably garbled that way; save it with a byte order mark or set input.encoding to its encoding`
}

/** Universal newlines: CRLF and lone CR become LF. */
export function normaliseNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
}

// C0 controls other than tab, LF, VT, FF, CR; DEL; and the replacement character.
const SUSPICIOUS = /[\u0001-\u0008\u000E-\u001F\u007F\uFFFD]/g
const MAX_SUSPICIOUS_RATIO = 0.1

/** Rejects text that is really binary data: NUL characters or many control/replacement characters. */
export function assertTextual(text: string): void {
  const nul = text.indexOf('\u0000')
  if (nul >= 0) throw new UnreadableTextError(`binary file (NUL byte on line ${text.slice(0, nul).split('\n').length})`)
  const sample = text.length > 65536 ? text.slice(0, 65536) : text
  const suspicious = sample.match(SUSPICIOUS)?.length ?? 0
  if (sample.length > 0 && suspicious / sample.length > MAX_SUSPICIOUS_RATIO) {
    throw new UnreadableTextError(`binary file (${Math.round((100 * suspicious) / sample.length)}% control characters)`)
  }
}

/** Decodes, checks and normalises a file's bytes; throws UnreadableTextError with the reason. */
export function readText(bytes: Uint8Array, decode: TextDecodeFn): string {
  let decoded: string
  try {
    decoded = decode(bytes)
  } catch (error) {
    // Undecodable bytes with NULs are a binary file, which says more than "not valid UTF-8".
    const nul = bytes.indexOf(0)
    if (error instanceof UnreadableTextError && nul >= 0)
      throw new UnreadableTextError(`binary file (NUL byte at offset ${nul})`)
    throw error
  }
  const text = normaliseNewlines(decoded)
  assertTextual(text)
  return text
}
