/**
 * Python-compatible string helpers used where GraphRAG's output depends on Python semantics:
 * `html.unescape`, `str.strip()`, and code-point string order (Python compares code points, JS `<`
 * compares UTF-16 units, which differ above U+FFFF).
 */
import { DROPPED_CODE_POINTS, HTML5_NAMED_REFERENCES, INVALID_CHARREFS, PYTHON_WHITESPACE } from './html-entities.js'

// Same token shapes as Python's html module: decimal, hex, or a name of up to 32 characters.
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/gu

const hasOwn = (name: string): boolean => Object.hasOwn(HTML5_NAMED_REFERENCES, name)

/** Python's `html.unescape`. */
export function htmlUnescape(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(CHARREF, (_match, ref: string) => replaceReference(ref))
}

function replaceReference(ref: string): string {
  if (ref[0] === '#') {
    const digits = ref.endsWith(';') ? ref.slice(0, -1) : ref
    const hex = digits[1] === 'x' || digits[1] === 'X'
    const num = hex ? Number.parseInt(digits.slice(2), 16) : Number.parseInt(digits.slice(1), 10)
    const mapped = INVALID_CHARREFS.get(num)
    if (mapped !== undefined) return mapped
    if ((num >= 0xd800 && num <= 0xdfff) || num > 0x10ffff || !Number.isFinite(num)) return '\uFFFD'
    if (inRanges(num, DROPPED_CODE_POINTS)) return ''
    return String.fromCodePoint(num)
  }
  if (hasOwn(ref)) return HTML5_NAMED_REFERENCES[ref]
  // Longest known prefix (the standard accepts some names without ';').
  for (let x = ref.length - 1; x > 1; x--) {
    const prefix = ref.slice(0, x)
    if (hasOwn(prefix)) return HTML5_NAMED_REFERENCES[prefix] + ref.slice(x)
  }
  return `&${ref}`
}

function inRanges(cp: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true
  return false
}

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
