/**
 * Reports of communities whose context cannot have changed, found without building the context.
 * Building a context (rendering, token counts, the canonical form and its keys) is most of the work
 * of an update's report step, and most communities of a large graph are untouched by one document.
 * A fingerprint of everything the context is built from (the community's ranked rows with their ids
 * and degrees, its sub-communities' ids, sizes, members and reports, with the identities their
 * citations name in this generation; the budget, tokenizer, prompt, word limit and model) is recorded
 * beside the canonical-context entries with what the full path worked out from that context: its
 * canonical key, its origin (the hash of its text), its anchor, and the report when the model wrote
 * it. An equal fingerprint in a later run means an equal context text, so the full path's outcome is
 * replayed from the store: the same decision (the same-context reply, or the renumbered report), the
 * same entries read and written. A report kept stale is never replayed (that decision depends on what
 * else changed), nor is anything whose canonical entry is gone: those take the full path.
 */
import { createHash } from 'node:crypto'
import type { EdgeDetails, EntityDetails, LocalContext } from './context.js'
import type { ReportContent } from './render.js'
import type { StableReports, WrittenReport } from './report-reuse.js'
import { decodeReport, identityText, type IdentityMaps, type StoredReport } from './stable-reuse.js'
import { anchorKey, anchorKeyOfJson, type ReportAnchor } from './stale-reuse.js'
import type { SubCommunity } from './substitution.js'

/** What the full path worked out from a context, recorded under the context's fingerprint. */
export interface UnchangedEntry {
  /** The canonical key (canonicalKey) the report is recorded under. */
  key: string
  /** SHA-256 of the context text. */
  origin: string
  anchor: ReportAnchor
  /** The report as the model wrote it for this very context; absent when it was renumbered. */
  content?: ReportContent
  /** The model cache's key of that reply: a replay reads the entry, so model_replies keeps it. */
  replyKey?: string
}

// Bumped whenever what the fingerprint covers changes, so older entries are never read as current.
const FORMAT = 1

/** The fingerprint's part common to a run: budget, tokenizer and the report basis (prompt, word limit, model). */
export function fingerprintBasis(basis: string, maxInputLength: number, tokenizer: string | null): string {
  return JSON.stringify([FORMAT, basis, maxInputLength, tokenizer])
}

/** The fingerprint of everything a community's context is built from. */
export function reportFingerprint(
  local: LocalContext,
  subs: readonly SubCommunity[],
  maps: IdentityMaps,
  runBasis: string,
): string {
  const hash = createHash('sha256').update(runBasis)
  for (const e of local.members.values()) hash.update(entityPart(e))
  for (const r of local.edges) hash.update(edgePart(r))
  for (const [subject, claims] of local.claims)
    for (const c of claims)
      hash.update(
        JSON.stringify(['c', subject, c.id, c.human_readable_id, c.subject_id, c.type, c.status, c.description]),
      )
  for (const s of subs) {
    // The identities its citations name: the canonical form (and so the reuse key) maps them.
    const named = s.fullContent === undefined ? null : (identityText(s.fullContent, maps) ?? null)
    // JSON.stringify(['s', community, size, members, fullContent, named]) in pieces: the same bytes
    // without one more copy of the report's text per sub-community.
    hash.update(`["s",${JSON.stringify(s.community)},${JSON.stringify(s.size)},${JSON.stringify([...s.members])},`)
    hash.update(JSON.stringify(s.fullContent ?? null))
    hash.update(`,${JSON.stringify(named)}]`)
  }
  return hash.digest('hex')
}

// A relationship is in the context of both its endpoints' communities at every level: written once.
const edgeParts = new WeakMap<EdgeDetails, string>()
function edgePart(r: EdgeDetails): string {
  let part = edgeParts.get(r)
  if (part === undefined) {
    part = JSON.stringify(['r', r.human_readable_id, r.source, r.target, r.description, r.combined_degree])
    edgeParts.set(r, part)
  }
  return part
}

// An entity is a member of a community at every level: written once (context.ts shares its details).
const entityParts = new WeakMap<EntityDetails, string>()
function entityPart(e: EntityDetails): string {
  let part = entityParts.get(e)
  if (part === undefined) {
    part = JSON.stringify(['e', e.human_readable_id, e.title, e.description, e.degree])
    entityParts.set(e, part)
  }
  return part
}

const entryKey = (fingerprint: string): string => `unchanged:${fingerprint}`

/** Records what the full path worked out for the context of this fingerprint. */
export async function recordUnchanged(
  stable: StableReports,
  fingerprint: string,
  entry: UnchangedEntry,
): Promise<void> {
  await stable.store.set(entryKey(fingerprint), JSON.stringify(entry))
}

/**
 * The full path's outcome for a context recorded under this fingerprint, replayed; undefined when
 * none is recorded or it cannot be replayed (its canonical entry is gone, a cited row is gone, or
 * the recorded outcome needs the model's reply that is not recorded).
 */
export async function unchangedReport(
  stable: StableReports,
  fingerprint: string,
  community: number,
): Promise<WrittenReport | undefined> {
  const recorded = await stable.store.get(entryKey(fingerprint))
  if (recorded === undefined) return undefined
  const entry = JSON.parse(recorded) as UnchangedEntry
  const value = await stable.store.get(entry.key)
  if (value === undefined) return undefined
  const raw = storedValueParts(value)
  if (raw.origin === entry.origin) {
    // The full path asks the model again with this very prompt; its reply is the report recorded.
    // It also writes the canonical entry again, with the value just read (and so recorded): no need.
    // The reply's cache entry is read, as that call would read it, so model_replies still carries it;
    // without it (gone, or recorded by an earlier version) the full path asks. The stored report is
    // not decoded: only its JSON names the anchor (most of a large graph's communities come here).
    if (entry.content === undefined || entry.replyKey === undefined || stable.replies === undefined) return undefined
    if ((await stable.replies.get(entry.replyKey)) === undefined) return undefined
    await stable.store.set(anchorKeyOfJson(raw.reportAndRefs, community), JSON.stringify(entry.anchor))
    return { content: entry.content, reuse: 'none', unchanged: true }
  }
  const { origin: _, ...stored } = JSON.parse(value) as StoredReport & { origin: string }
  const content = decodeReport(stored, stable.maps)
  if (content === undefined) return undefined
  await stable.store.set(anchorKey(stored, community), JSON.stringify(entry.anchor))
  return { content, reuse: 'renumbered', unchanged: true }
}

const REPORT_HEAD = '{"report":'
const REFS_SEPARATOR = ',"refs":'
const ORIGIN_HEAD = ',"origin":"'
const ORIGIN_TAIL = '"}'

/**
 * A canonical entry's origin and its report and refs as JSON (`report,refs`): read off the value as
 * report-reuse.ts writes it, JSON.stringify({ report, refs, origin }), without parsing the report
 * (inside JSON strings every quote is escaped, and the report's keys are its content's, so the first
 * `,"refs":` is the one between the two); parsed when it is in another form.
 */
export function storedValueParts(value: string): { origin: string; reportAndRefs: string } {
  return writtenValueParts(value) ?? parsedValueParts(value)
}

function parsedValueParts(value: string): { origin: string; reportAndRefs: string } {
  const { origin, report, refs } = JSON.parse(value) as StoredReport & { origin: string }
  return { origin, reportAndRefs: `${JSON.stringify(report)},${JSON.stringify(refs)}` }
}

function writtenValueParts(value: string): { origin: string; reportAndRefs: string } | undefined {
  const originAt = value.length - ORIGIN_TAIL.length - 64 - ORIGIN_HEAD.length
  const refsAt = value.indexOf(REFS_SEPARATOR)
  if (
    refsAt < REPORT_HEAD.length ||
    refsAt > originAt ||
    !value.startsWith(REPORT_HEAD) ||
    !value.endsWith(ORIGIN_TAIL)
  )
    return undefined
  if (!value.startsWith(ORIGIN_HEAD, originAt)) return undefined
  const origin = value.slice(originAt + ORIGIN_HEAD.length, value.length - ORIGIN_TAIL.length)
  if (!/^[0-9a-f]{64}$/.test(origin)) return undefined
  const report = value.slice(REPORT_HEAD.length, refsAt)
  return { origin, reportAndRefs: `${report},${value.slice(refsAt + REFS_SEPARATOR.length, originAt)}` }
}
