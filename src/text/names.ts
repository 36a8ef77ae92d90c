/**
 * Python-compatible string helpers used where GraphRAG's output depends on Python semantics:
 * `html.unescape`, `str.strip()`, and code-point string order (Python compares code points, JS `<`
 * compares UTF-16 units, which differ above U+FFFF).
 */
import { decodeHTML } from 'entities/decode'

// Same token shapes as Python's html module: decimal, hex, or a name of up to 32 characters.
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/gu

/**
 * Code points a numeric reference to which Python drops (`html._invalid_codepoints` less the
 * windows-1252 range 0x80–0x9F, which it remaps first): controls and noncharacters. The WHATWG
 * decoder of `entities` keeps them; every other reference decodes the same (test/text/html-unescape.test.ts).
 */
const DROPPED_CODE_POINTS: ReadonlyArray<readonly [number, number]> = [
  [0x01, 0x08],
  [0x0b, 0x0b],
  [0x0e, 0x1f],
  [0x7f, 0x7f],
  [0xfdd0, 0xfdef],
]

/** Python's `html.unescape`: Python's tokens, each decoded by `entities` (WHATWG) unless Python drops it. */
export function htmlUnescape(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(CHARREF, (match: string, ref: string) => (droppedNumeric(ref) ? '' : decodeHTML(match)))
}

function droppedNumeric(ref: string): boolean {
  if (ref[0] !== '#') return false
  const digits = ref.endsWith(';') ? ref.slice(0, -1) : ref
  const hex = digits[1] === 'x' || digits[1] === 'X'
  const num = hex ? Number.parseInt(digits.slice(2), 16) : Number.parseInt(digits.slice(1), 10)
  // U+xFFFE and U+xFFFF of every plane are noncharacters too.
  return inRanges(num, DROPPED_CODE_POINTS) || (num <= 0x10ffff && (num & 0xfffe) === 0xfffe)
}

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true
  return false
}

/** Inclusive code point ranges of Python's str.isspace(). */
const PYTHON_WHITESPACE: ReadonlyArray<readonly [number, number]> = [
  [9, 13],
  [28, 32],
  [133, 133],
  [160, 160],
  [5760, 5760],
  [8192, 8202],
  [8232, 8233],
  [8239, 8239],
  [8287, 8287],
  [12288, 12288],
]

/** Python's `str.strip()` with no argument (its whitespace set differs from JS `trim`). */
export function pythonStrip(s: string): string {
  let start = 0
  let end = s.length
  while (start < end && inRanges(s.charCodeAt(start), PYTHON_WHITESPACE)) start++
  while (end > start && inRanges(s.charCodeAt(end - 1), PYTHON_WHITESPACE)) end--
  return s.slice(start, end)
}

/** GraphRAG's node-name normalisation: `html.unescape(name).upper().strip()`. */
export function normalizeNodeName(name: string): string {
  return pythonStrip(htmlUnescape(name).toUpperCase())
}

/** Orders strings by code point, like Python. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codePointRank(x) - codePointRank(y)
  }
  return a.length - b.length
}

/** Maps UTF-16 units so that surrogates (astral code points) sort after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800
  if (unit >= 0xd800) return unit + 0x2000
  return unit
}
