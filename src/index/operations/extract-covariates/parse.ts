/**
 * Tolerant parser for claim-extraction replies: `(SUBJECT<|>OBJECT<|>TYPE<|>STATUS<|>START<|>END
 * <|>DESCRIPTION<|>SOURCE)` records separated by `##` (or just by line breaks). Chatter without
 * delimiters is ignored; records with too few fields are dropped and reported.
 */
import type { DroppedRecord } from '../extract-graph/parse.js'
import { echoedNames, type ReplyContext, whyUnusable } from '../extract-graph/read-reply.js'
import {
  cleanField,
  cleanName,
  cleanText,
  continuesRecord,
  normalizeReply,
  TUPLE_DELIMITER,
  unquote,
} from '../extract-graph/reply-text.js'
import { markdownClaimFields } from './markdown-claims.js'

export interface ParsedClaim {
  subject_id: string
  object_id: string | null
  type: string | null
  status: string | null
  start_date: string | null
  end_date: string | null
  description: string | null
  source_text: string | null
}

export interface ParsedClaimReply {
  claims: ParsedClaim[]
  dropped: DroppedRecord[]
}

export interface ClaimReplyReading extends ParsedClaimReply {
  /** Why the reply cannot be used (refusal, non-answer, echo, unfinished thinking); undefined when usable. */
  unusable: string | undefined
}

const FIELDS = 8

// Prose ending in `:` before a record's `(` on the same line (`Here are the claims: (SCROOGE<|>…`).
const PREAMBLE = /^[^\n(<]*:[ \t]*(?=\([^\n]*<\|>)/gm

export function parseClaimReply(reply: string): ParsedClaimReply {
  const out: ParsedClaimReply = { claims: [], dropped: [] }
  for (const record of splitRecords(normalizeReply(reply).replace(PREAMBLE, ''))) {
    const fields = recordBody(record).split(TUPLE_DELIMITER)
    if (fields.length < FIELDS - 1) {
      out.dropped.push({ text: record, reason: `claim with ${fields.length} fields (expected ${FIELDS})` })
      continue
    }
    const claim = toClaim(fields)
    if (claim === undefined) out.dropped.push({ text: record, reason: 'claim without a subject' })
    else out.claims.push(claim)
  }
  // No tuple claim: the claims may be written as Markdown fields (`- **Subject**: …`).
  if (out.claims.length === 0) out.claims = markdownClaimFields(normalizeReply(reply)).flatMap((f) => toClaim(f) ?? [])
  return out
}

/**
 * Reads one claim reply the way the graph reader does (read-reply.ts): thinking blocks are never
 * read, claims whose subject or object was copied from the prompt's examples are dropped, and a
 * reply that is only a refusal, prose, an echo or an unfinished thinking block is called unusable
 * rather than read as "no claims".
 */
export function readClaimReply(reply: string, context: ReplyContext = {}): ClaimReplyReading {
  const parsed = parseClaimReply(reply)
  // NONE is the format's "no object", written in the examples too: it is never an echo.
  const named = (id: string | null): id is string => id !== null && id !== 'NONE'
  const names = parsed.claims.flatMap((c) => [c.subject_id, c.object_id].filter(named))
  const echoes = echoedNames(names, context)
  const isEcho = (c: ParsedClaim) => [c.subject_id, c.object_id].filter(named).some((n) => echoes.has(n))
  const claims = parsed.claims.filter((c) => !isEcho(c))
  const dropped = [
    ...parsed.dropped,
    ...parsed.claims.filter(isEcho).map((c) => ({
      text: [c.subject_id, c.object_id, c.type, c.description].filter((x) => x !== null).join(' | '),
      reason: "copied from the prompt's examples, not in the text",
    })),
  ]
  return { claims, dropped, unusable: claims.length > 0 ? undefined : whyUnusable(reply, echoes.size > 0) }
}

/** A parenthesised record ends at its last `)`; whatever follows on later lines is chatter. */
function recordBody(record: string): string {
  if (!record.startsWith('(')) return record.replace(/\)$/, '')
  const close = record.lastIndexOf(')')
  return close > 0 ? record.slice(1, close) : record.slice(1)
}

/** Pieces between `##`, further split where one parenthesised record ends a line and the next begins. */
function splitRecords(text: string): string[] {
  const records: string[] = []
  for (const piece of text.split(/#{2,}/)) {
    const parts = /^\s*\(/.test(piece) ? piece.split(/\)[ \t]*\n\s*(?=\()/) : splitUnparenthesised(piece)
    for (const part of parts) {
      const record = part.trim()
      if (record.includes(TUPLE_DELIMITER)) records.push(record)
    }
  }
  return records
}

/** Without parentheses each line holding delimiters is a record; a line that continues it (see continuesRecord) is joined. */
function splitUnparenthesised(piece: string): string[] {
  const records: string[] = []
  let open = false
  for (const line of piece.split('\n')) {
    const last = records.length - 1
    if (!line.includes(TUPLE_DELIMITER) && open && continuesRecord(records[last]!, line)) {
      records[last] += `\n${line}`
      continue
    }
    records.push(line)
    open = line.includes(TUPLE_DELIMITER)
  }
  return records
}

function toClaim(fields: string[]): ParsedClaim | undefined {
  const subject = cleanName(fields[0]!)
  if (subject === '') return undefined
  // Text beyond the eighth field (a stray delimiter) stays in source_text rather than being lost.
  const source = fields
    .slice(FIELDS - 1)
    .map(cleanText)
    .filter((f) => f !== '')
    .join(' ')
  return {
    subject_id: subject,
    object_id: orNull(cleanName(fields[1]!)),
    type: orNull(cleanName(fields[2]!)),
    status: orNull(cleanName(fields[3]!)),
    start_date: orNull(unquote(cleanField(fields[4]!))),
    end_date: orNull(unquote(cleanField(fields[5]!))),
    description: orNull(cleanText(fields[6]!)),
    source_text: orNull(source),
  }
}

function orNull(value: string): string | null {
  return value === '' ? null : value
}
