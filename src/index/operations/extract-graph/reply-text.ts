/**
 * Text helpers shared by the graph and claim parsers: normalising a raw model reply (line ends,
 * code fences, completion markers, delimiter spacing) and cleaning fields as the reference does.
 */
import { htmlUnescape, pythonStrip } from '../../../graph/components/index.js'

export const TUPLE_DELIMITER = '<|>'

const CODE_FENCE_LINE = /^[ \t]*(?:```|~~~)[^\n]*$/gm
// `<|COMPLETE|>` as prompted, plus the spellings small models produce (`<COMPLETE>`, `<| complete |>`).
const COMPLETION_MARKER = /<[ \t]*\|?[ \t]*COMPLETE[ \t]*\|?[ \t]*>/gi
const SPACED_DELIMITER = /<[ \t]*\|[ \t]*>/g
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g

/** CRLF/CR → LF, code-fence lines and completion markers removed, `< | >` → `<|>`. */
export function normalizeReply(reply: string): string {
  return reply
    .replace(/\r\n?/g, '\n')
    .replace(CODE_FENCE_LINE, '')
    .replace(COMPLETION_MARKER, '\n')
    .replace(SPACED_DELIMITER, TUPLE_DELIMITER)
}

/** The reference's field cleaning: strip, HTML-unescape, delete C0/C1 control characters. */
export function cleanField(value: string): string {
  return htmlUnescape(pythonStrip(value)).replace(CONTROL_CHARS, '')
}

/** Cleans free text: a record split over lines keeps a space where the line break was. */
export function cleanText(value: string): string {
  return cleanField(value.replace(/[ \t]*\n\s*/g, ' '))
}

/**
 * Removes quotes or markdown emphasis wrapped around a whole field (`"SCROOGE"`, `**SCROOGE**`),
 * but only when the inside holds no other such mark (`"A" and "B"` stays as written).
 */
export function unquote(value: string): string {
  let out = value
  for (;;) {
    const m = /^(["'`]|\*\*?|__?)([\s\S]+)\1$/.exec(out)
    if (m === null || m[2]!.includes(m[1]![0]!)) return out
    out = pythonStrip(m[2]!)
  }
}

/** A name or type: upper-cased first (as the reference does), cleaned, unquoted. */
export function cleanName(value: string): string {
  return unquote(cleanField(value.toUpperCase()))
}

/** The first number in a field (`8`, `8 (strong)`, `strength: 7`, `"9"`), or undefined. */
export function parseLeadingNumber(value: string): number | undefined {
  const m = /-?\d+(?:\.\d+)?/.exec(value)
  return m === null ? undefined : Number(m[0])
}
