/**
 * Claims written as Markdown fields instead of tuple records, one `- **Label**: value` line per
 * field (`Subject`, `Object`, `Claim Type`, `Claim Status`, `Claim Date` or `Start Date` / `End
 * Date`, `Claim Description`, `Claim Source Text`). A `Subject` line starts the next claim. Each claim
 * comes back as the eight fields of the tuple format, so both forms are cleaned alike.
 */

type Slot = 'subject' | 'object' | 'type' | 'status' | 'start' | 'end' | 'description' | 'source'
const ORDER: readonly Slot[] = ['subject', 'object', 'type', 'status', 'start', 'end', 'description', 'source']

// Labels lower-cased without spaces, `_`, `-` and a leading "claim".
const SLOTS: Record<string, Slot | 'date'> = {
  subject: 'subject',
  subjectentity: 'subject',
  object: 'object',
  objectentity: 'object',
  type: 'type',
  status: 'status',
  date: 'date',
  startdate: 'start',
  enddate: 'end',
  description: 'description',
  sourcetext: 'source',
  source: 'source',
}

// `- **Claim Type**: value`, `**Subject:** value`, `Subject: value`, behind an optional bullet.
const FIELD_LINE =
  /^[ \t]*(?:[-*+•]|\d+[.)])?[ \t]*\*{0,2}([A-Za-z][A-Za-z _-]{0,30}?)[ \t]*(?::\*{0,2}|\*{0,2}:)[ \t]*(.+)$/

function slotOf(label: string): Slot | 'date' | undefined {
  const key = label
    .toLowerCase()
    .replace(/[\s_-]/g, '')
    .replace(/^claim(?=.)/, '')
  return SLOTS[key]
}

/** The claims' fields in tuple order (missing ones empty); records without a subject are left out. */
export function markdownClaimFields(text: string): string[][] {
  const claims: Array<Partial<Record<Slot, string>>> = []
  for (const line of text.split('\n')) {
    const m = FIELD_LINE.exec(line)
    const slot = m === null ? undefined : slotOf(m[1]!)
    if (slot === undefined) continue
    const value = m![2]!.trim()
    if (slot === 'subject') claims.push({})
    const claim = claims.at(-1)
    if (claim === undefined) continue
    if (slot !== 'date') claim[slot] = value
    else {
      // `Claim Date: 2022-01-10T00:00:00 to 2022-01-10T00:00:00` (or a single date, or NONE).
      const [start, end] = value.split(/\s+(?:to|-|–|until)\s+/i)
      claim.start = start!
      claim.end = end ?? start!
    }
  }
  return claims.filter((c) => c.subject !== undefined).map((c) => ORDER.map((slot) => c[slot] ?? ''))
}
