/**
 * One community's report from its context, asking the model only when no earlier report may stand:
 * shared by the graph-context (generate.ts) and text-unit-context (text-unit-reports.ts) writers.
 * In order: the report of the same canonical context renumbered (stable-reuse.ts); in an update,
 * the previous report kept within community_reports.update_max_context_change (stale-reuse.ts);
 * else a model call, whose report is recorded with its canonical key and its anchor.
 */
import { createHash } from 'node:crypto'
import type { ChatModel } from '../../../llm/types.js'
import type { ContextSection } from './context-rows.js'
import type { ReportContent } from './render.js'
import { requestReport, type ReportRequestOptions, type ReportRunResult } from './request.js'
import {
  canonicalContext,
  canonicalKey,
  decodeReport,
  encodeReport,
  type IdentityMaps,
  type StoredReport,
} from './stable-reuse.js'
import { recordUnchanged } from './unchanged-reports.js'
import { anchorKey, anchorOf, legacyAnchorKey, type ReportAnchor, reportBasis, staleDecision } from './stale-reuse.js'

/** Where reports are recorded by canonical context, and how ids map to identities in this generation. */
export interface StableReports {
  store: { get(key: string): Promise<string | undefined>; set(key: string, value: string): Promise<void> }
  maps: IdentityMaps
  /**
   * The report model's cache partition. A report replayed from the same context text reads its reply's
   * entry there, so the run records it in model_replies exactly as the model call it replaces would.
   */
  replies?: { get(key: string): Promise<string | undefined> }
  /** In an update: keep a changed community's previous report when stale-reuse.ts allows it. */
  stale?: StaleReuse
  /** The chat model's encoding_model setting (null: chosen from the model): contexts are trimmed by its counts. */
  tokenizer?: string | null
}

export interface StaleReuse {
  /** community_reports.update_max_context_change. */
  maxChange: number
  /**
   * The previous generation's report that may stand for this community, in stored form, and the
   * community it stood for there; undefined when none.
   */
  previous(community: number): { stored: StoredReport; community: number } | undefined
  /** Names (rowName) of rows gone from the index or that lost a supporting text unit since the previous generation. */
  losing: ReadonlySet<string>
}

export interface ReportWriter {
  chat: ChatModel
  signal?: AbortSignal
  stable?: StableReports
}

export type Reuse = 'none' | 'renumbered' | 'stale'

export interface WrittenReport {
  content: ReportContent
  reuse: Reuse
  /** For a report kept stale: how far its context moved (Jaccard distance of rows). */
  change?: number
  /** Replayed from its context's fingerprint, the context not built (unchanged-reports.ts). */
  unchanged?: boolean
}

/** Binds the prompt, word limit and model once per run: what every report of the run is written with. */
export function reportWriter(options: ReportRequestOptions, writer: ReportWriter) {
  const basis = reportBasis(options.prompt, options.maxReportLength, writer.chat.model)
  return (community: number, context: ReportContext, fingerprint?: string): Promise<WrittenReport> =>
    writeReport(community, context, options, writer, basis, fingerprint)
}

/** What a report is written from: the context's prompt text and the rows it was rendered from. */
export interface ReportContext {
  text: string
  sections: readonly ContextSection[]
}

async function writeReport(
  community: number,
  context: ReportContext,
  options: ReportRequestOptions,
  writer: ReportWriter,
  basis: string,
  fingerprint: string | undefined,
): Promise<WrittenReport> {
  const contextText = context.text
  const stable = writer.stable
  const canonical = stable === undefined ? undefined : canonicalContext(context.sections, stable.maps)
  if (stable === undefined || canonical === undefined) {
    return { content: (await requestReport(contextText, options, writer)).report, reuse: 'none' }
  }
  const key = canonicalKey(canonical.text, options.prompt, options.maxReportLength, writer.chat.model)
  const origin = createHash('sha256').update(contextText).digest('hex')
  const anchor = anchorOf(canonical.rows, basis)
  const record = (content?: ReportContent, replyKey?: string) =>
    fingerprint === undefined
      ? undefined
      : recordUnchanged(stable, fingerprint, {
          key,
          origin,
          anchor,
          ...(content === undefined ? {} : { content }),
          ...(replyKey === undefined ? {} : { replyKey }),
        })
  const earlier = await keptReport(key, origin, stable)
  if (earlier !== undefined && earlier !== SAME_CONTEXT) {
    // The same canonical context: the rows this report stands on are the ones it was written from.
    await stable.store.set(anchorKey(earlier.stored, community), JSON.stringify(anchor))
    await record()
    return { content: earlier.report, reuse: 'renumbered' }
  }
  // A context whose text is unchanged is answered by its own cache entry, never kept stale.
  const stale = earlier === SAME_CONTEXT ? undefined : await staleReport(community, anchor, stable)
  if (stale !== undefined) {
    // Kept, it still rests on the rows it was first written from: successive updates cannot let it drift.
    await stable.store.set(anchorKey(stale.stored, community), JSON.stringify(stale.anchor))
    return { content: stale.report, reuse: 'stale', change: stale.change }
  }
  const { report: content, replyKey } = await requestReport(contextText, options, writer)
  const stored = encodeReport(content, stable.maps, canonical.shown)
  if (stored !== undefined) {
    await stable.store.set(key, JSON.stringify({ ...stored, origin }))
    await stable.store.set(anchorKey(stored, community), JSON.stringify(anchor))
    await record(content, replyKey)
  }
  return { content, reuse: 'none' }
}

const SAME_CONTEXT = Symbol('same context text')

/**
 * The earlier report of the same canonical context, renumbered; undefined when none or when a cited
 * row is gone; SAME_CONTEXT when it came from this very context text: then the model call (its cache
 * entry) gives the same reply, and a warm re-run keeps using, and recording, exactly the entries it
 * used before.
 */
async function keptReport(
  key: string,
  origin: string,
  stable: StableReports,
): Promise<{ report: ReportContent; stored: StoredReport } | typeof SAME_CONTEXT | undefined> {
  const value = await stable.store.get(key)
  if (value === undefined) return undefined
  const { origin: from, ...stored } = JSON.parse(value) as StoredReport & { origin: string }
  if (from === origin) return SAME_CONTEXT
  const report = decodeReport(stored, stable.maps)
  return report === undefined ? undefined : { report, stored }
}

/**
 * In an update: the community's previous report, renumbered, when its anchor (the rows it was written
 * from) allows keeping it under the bound; undefined when there is no previous report, no recorded
 * anchor (an index from before anchors, or from Microsoft GraphRAG), or the rules say regenerate.
 */
async function staleReport(
  community: number,
  current: ReportAnchor,
  stable: StableReports,
): Promise<{ report: ReportContent; stored: StoredReport; anchor: ReportAnchor; change: number } | undefined> {
  const stale = stable.stale
  const previous = stale?.previous(community)
  if (stale === undefined || previous === undefined) return undefined
  const { stored, community: predecessor } = previous
  const value =
    (await stable.store.get(anchorKey(stored, predecessor))) ?? (await stable.store.get(legacyAnchorKey(stored)))
  if (value === undefined) return undefined
  const anchor = JSON.parse(value) as ReportAnchor
  const decision = staleDecision(anchor, current, stale.losing, stale.maxChange)
  if (!decision.keep) return undefined
  const report = decodeReport(stored, stable.maps)
  return report === undefined ? undefined : { report, stored, anchor, change: decision.change }
}

/** Adds a written report's reuse to the run's counts. */
export function countReuse(
  result: ReportRunResult,
  written: Pick<WrittenReport, 'reuse' | 'change' | 'unchanged'>,
): void {
  if (written.unchanged === true && written.reuse === 'none') result.unchanged = (result.unchanged ?? 0) + 1
  if (written.reuse === 'renumbered') result.reused = (result.reused ?? 0) + 1
  if (written.reuse === 'stale') {
    result.keptStale = (result.keptStale ?? 0) + 1
    result.maxStaleChange = Math.max(result.maxStaleChange ?? 0, written.change ?? 0)
  }
}
