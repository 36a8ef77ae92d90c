/**
 * The tolerant, lossless parser for graph-extraction replies. Each reply (first answer and every
 * gleaning answer) is parsed on its own. Records are found by their `("entity"<|>` /
 * `("relationship"<|>` openings, so a completion marker glued to the last record, a missing `##`,
 * missing parentheses, code fences, CRLF or a record split over lines lose nothing.
 */
import {
  cleanName,
  cleanText,
  continuesRecord,
  normalizeReply,
  parseStrength,
  TUPLE_DELIMITER,
  unquote,
} from './reply-text.js'

export interface ParsedEntity {
  title: string
  type: string
  description: string
}

export interface ParsedRelationship {
  source: string
  target: string
  description: string
  weight: number
}

export interface DroppedRecord {
  text: string
  reason: string
}

export interface ParsedGraphReply {
  entities: ParsedEntity[]
  relationships: ParsedRelationship[]
  /** Record-like text that could not be used (counted as parse drops). */
  dropped: DroppedRecord[]
  /** Relationships kept with weight 1 because their last field does not start with a strength. */
  defaultedWeights: number
  /** Those relationships' records as written, for the log (absent when there are none). */
  weightless?: string[]
}

/** Weight used when a relationship record has no numeric strength (the reference's fallback). */
const DEFAULT_WEIGHT = 1

// A record opening: the kind (quoted, bold or bare) then the tuple delimiter, either behind a `(`
// anywhere (`Here are the results: ("entity"<|>…`), or without one at the start of a line or right
// after `##`, `)`, `,`, `;`, `:` or `[` (optionally behind a list bullet). Anchoring the bare form
// keeps a description that ends in "... relationship" from being taken for a new record.
const RECORD_START =
  /(?:\(|(?<=(?:^|[\n#),;:[])[ \t]*(?:[-*]|\d+[.)])?[ \t]*))[ \t]*["'`*]*[ \t]*(entity|entities|relationship|relationships|relation|relations)[ \t]*["'`*]*\s*<\|>/gi

const KINDS = 'entity|entities|relationship|relationships|relation|relations'
// Markers some models invent around each record: `<|start_entity|>A<|>B<|>C<|end_entity|>`.
const INVENTED_START = new RegExp(`<\\|[ \\t]*(?:start|begin)[ _-]?(${KINDS})[ \\t]*\\|>`, 'gi')
const INVENTED_END = new RegExp(`<\\|[ \\t]*end[ _-]?(?:${KINDS})[ \\t]*\\|>`, 'gi')
// A delimiter that lost a character right before the strength closing the record: `"desc"|>8)`,
// `"desc")<|7)`. Read as the delimiter, so the strength is kept rather than defaulted.
const STRENGTH_AHEAD = '(?=[ \\t]*-?\\d+(?:\\.\\d+)?[ \\t]*\\))'
const HALF_DELIMITER_CLOSE = new RegExp(`(?<!<)\\|>${STRENGTH_AHEAD}`, 'g')
const HALF_DELIMITER_OPEN = new RegExp(`\\)?<\\|(?!>)${STRENGTH_AHEAD}`, 'g')

/** The graph-only repairs on top of normalizeReply: invented record markers, half delimiters. */
function normalizeGraphReply(reply: string): string {
  return normalizeReply(reply)
    .replace(INVENTED_START, (_, kind: string) => `\n("${kind}"<|>`)
    .replace(INVENTED_END, ')\n')
    .replace(HALF_DELIMITER_CLOSE, '<|>')
    .replace(HALF_DELIMITER_OPEN, '<|>')
}

export function parseGraphReply(reply: string): ParsedGraphReply {
  const text = normalizeGraphReply(reply)
  const out: ParsedGraphReply = { entities: [], relationships: [], dropped: [], defaultedWeights: 0 }
  const starts = [...text.matchAll(RECORD_START)]
  let leftover = starts.length === 0 ? text : text.slice(0, starts[0]!.index)
  starts.forEach((match, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : text.length
    const segment = text.slice(match.index + match[0].length, end)
    const { body, rest } = recordBody(segment, match[0].trimStart().startsWith('('))
    leftover += `\n${rest}`
    const fields = withoutTrailingEmpty(body.split(TUPLE_DELIMITER))
    const kind = match[1]!.toLowerCase().startsWith('entit') ? 'entity' : 'relationship'
    const raw = `${match[0]}${body}`
    if (kind === 'entity') addEntity(out, fields, raw)
    else addRelationship(out, fields, raw)
  })
  for (const piece of leftover.split(/#{2,}|\n/)) {
    if (piece.includes(TUPLE_DELIMITER))
      out.dropped.push({ text: piece.trim(), reason: 'not an entity or relationship record' })
  }
  return out
}

/**
 * Splits the text after a record opening into the record's fields and trailing text. A record ends
 * at `##`, at a blank line, at the `)` that closes it at a line end when it opened with `(`, and
 * otherwise at the first line break that does not continue it.
 */
function recordBody(segment: string, parenthesised: boolean): { body: string; rest: string } {
  let end = segment.length
  const delimiter = segment.search(/#{2,}/)
  if (delimiter >= 0) end = delimiter
  const blank = segment.slice(0, end).search(/\n[ \t]*\n/)
  if (blank >= 0) end = blank
  const close = parenthesised ? closingParenthesis(segment.slice(0, end)) : -1
  if (close >= 0) return { body: segment.slice(0, close), rest: segment.slice(close + 1) }
  end = Math.min(end, unmarkedRecordEnd(segment.slice(0, end)))
  return { body: segment.slice(0, end).replace(/\s+$/, '').replace(/\)$/, ''), rest: segment.slice(end) }
}

/** Where a record with no closing `)` ends: at the first line break that does not continue it. */
function unmarkedRecordEnd(body: string): number {
  for (const lineBreak of body.matchAll(/\n/g)) {
    const before = body.slice(0, lineBreak.index)
    if (before.trim() !== '' && !continuesRecord(before, body.slice(lineBreak.index + 1))) return lineBreak.index
  }
  return body.length
}

/**
 * The `)` that closes the record: the first one at a line end where the parentheses opened since the
 * record's `(` are balanced (`... (including Tiny Tim))`), else the first one at a line end.
 */
// A line end, optionally after list punctuation (records written as `[(...), (...)]`).
const LINE_END = /[ \t]*[,;\]]*[ \t]*(?:\n|$)/y

function closingParenthesis(body: string): number {
  let depth = 1
  let first = -1
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '(') depth++
    if (c !== ')') continue
    depth--
    LINE_END.lastIndex = i + 1
    if (!LINE_END.test(body)) continue
    if (depth <= 0) return i
    if (first < 0) first = i
  }
  return first
}

/** `(...<|>8<|>)`: a delimiter before the closing parenthesis adds an empty last field. */
function withoutTrailingEmpty(fields: string[]): string[] {
  let n = fields.length
  while (n > 1 && fields[n - 1]!.trim() === '') n--
  return fields.slice(0, n)
}

function addEntity(out: ParsedGraphReply, fields: string[], raw: string): void {
  if (fields.length < 2) return void out.dropped.push({ text: raw, reason: 'entity without a type' })
  const title = cleanName(fields[0]!)
  const type = cleanName(fields[1]!)
  if (title === '') return void out.dropped.push({ text: raw, reason: 'entity without a name' })
  out.entities.push({ title, type, description: joinDescription(fields.slice(2)) })
}

function addRelationship(out: ParsedGraphReply, fields: string[], raw: string): void {
  if (fields.length < 3) return void out.dropped.push({ text: raw, reason: 'relationship without a target' })
  const source = cleanName(fields[0]!)
  const target = cleanName(fields[1]!)
  if (source === '' || target === '')
    return void out.dropped.push({ text: raw, reason: 'relationship without source or target' })
  const at = strengthField(fields)
  const strength = at === undefined ? undefined : parseStrength(fields[at]!)
  // A last field that does not start with a number is text (`…<|>on floor 3`): it stays in the description.
  const descriptionFields = at === undefined ? fields.slice(2) : fields.filter((_, i) => i >= 2 && i !== at)
  if (strength === undefined) {
    out.defaultedWeights++
    ;(out.weightless ??= []).push(raw)
  }
  out.relationships.push({
    source,
    target,
    description: joinDescription(descriptionFields),
    weight: strength ?? DEFAULT_WEIGHT,
  })
}

// A field holding nothing but a number (`9`, `"8"`): a strength followed by an extra field.
const BARE_NUMBER = /^[\s"'`*]*-?\d+(?:\.\d+)?[\s"'`*]*$/

/**
 * Which field holds the strength: the last one when it starts with a number; otherwise a field of
 * nothing but a number after the description, followed by extra text fields (a source tag some
 * models append: `…<|>"keywords"<|>9<|>"Weekly Brief"`).
 */
function strengthField(fields: readonly string[]): number | undefined {
  if (fields.length < 4) return undefined
  if (parseStrength(fields[fields.length - 1]!) !== undefined) return fields.length - 1
  for (let i = fields.length - 2; i >= 3; i--) if (BARE_NUMBER.test(fields[i]!)) return i
  return undefined
}

/** Descriptions are cleaned like the reference; extra fields (a stray `<|>`) are kept, not dropped. */
function joinDescription(fields: readonly string[]): string {
  return fields
    .map((f) => unquote(cleanText(f)))
    .filter((f) => f !== '')
    .join(' ')
}
