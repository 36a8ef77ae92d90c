/**
 * Text helpers shared by the graph and claim parsers: normalising a raw model reply (line ends,
 * code fences, completion markers, delimiter spacing) and cleaning fields as the reference does.
 */
import { htmlUnescape, pythonStrip } from '../../../text/names.js'
import { stripThinking } from '../../../llm/thinking.js'

export const TUPLE_DELIMITER = '<|>'

const CODE_FENCE_LINE = /^[ \t]*(?:```|~~~)[^\n]*$/gm
// `<|COMPLETE|>` as prompted, plus the spellings small models produce (`<COMPLETE>`, `<| complete |>`).
const COMPLETION_MARKER = /<[ \t]*\|?[ \t]*COMPLETE[ \t]*\|?[ \t]*>/gi
// A line holding nothing but `COMPLETE`, bare or as `[COMPLETE]`, `**COMPLETE**`, `` `COMPLETE` ``
// (capitals only, so a wrapped description line reading "complete" stays text).
const COMPLETION_LINE = /^[ \t]*(?:\[|\*\*?|__?|`)?[ \t]*COMPLETED?[ \t]*(?:\]|\*\*?|__?|`)?[ \t]*\.?[ \t]*$/gm
const SPACED_DELIMITER = /<[ \t]*\|[ \t]*>/g
// Models that echo the prompt's delimiter placeholders instead of the delimiters (LightRAG issue #416).
const PLACEHOLDERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\{tuple_delimiter\}/gi, '<|>'],
  [/\{record_delimiter\}/gi, '\n##\n'],
  [/\{completion_delimiter\}/gi, '\n\n'],
]
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g

/**
 * Thinking blocks removed (see stripThinking), CRLF/CR → LF, code-fence lines removed, `< | >` →
 * `<|>`, delimiter placeholders replaced by the delimiters. A completion marker becomes a blank
 * line, which ends the record before it (text after it is still read: nothing is thrown away).
 */
export function normalizeReply(reply: string): string {
  let text = stripThinking(reply).text
  for (const [placeholder, delimiter] of PLACEHOLDERS) text = text.replace(placeholder, delimiter)
  return text
    .replace(/\r\n?/g, '\n')
    .replace(CODE_FENCE_LINE, '')
    .replace(COMPLETION_MARKER, '\n\n')
    .replace(COMPLETION_LINE, '')
    .replace(SPACED_DELIMITER, TUPLE_DELIMITER)
}

/**
 * Whether the line after a break continues a record that no `)` closes. Nothing marks where such a
 * record ends, so only a break touching a `<|>` (fields split over lines) or a next line starting in
 * lower case (a wrapped sentence) continues it; "I hope this helps!" is chatter, not the last field.
 */
export function continuesRecord(before: string, after: string): boolean {
  const next = after.trimStart()
  return before.trimEnd().endsWith(TUPLE_DELIMITER) || next.startsWith(TUPLE_DELIMITER) || /^\p{Ll}/u.test(next)
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

// A name written inside the template's placeholder brackets (`<供电系统运维要点>`, `<SCROOGE>`).
const ANGLE_WRAPPED = /^<([^<>|]+)>$/

/** A name or type: upper-cased first (as the reference does), cleaned, unquoted, out of `<…>`. */
export function cleanName(value: string): string {
  const name = unquote(cleanField(value.toUpperCase()))
  const inner = ANGLE_WRAPPED.exec(name)?.[1]
  return inner === undefined ? name : unquote(pythonStrip(inner))
}

// The strength opens its field, maybe behind quotes, emphasis or a label (`8`, `"9"`, `**7**`,
// `strength: 6`, `weight = 7.5 (strong)`, `8/10`); a number further in belongs to text (`floor 3`).
const STRENGTH =
  /^[\s"'`*([]*(?:(?:relationship[ _-]?)?(?:strength|weight|score)[\s"'`*]*[:=]?[\s"'`*]*)?(-?\d+(?:\.\d+)?)(?![\p{L}\d]|\.\d)/iu

/** The relationship strength a field starts with, or undefined when it does not start with one. */
export function parseStrength(value: string): number | undefined {
  const m = STRENGTH.exec(value)
  return m === null ? undefined : Number(m[1])
}
