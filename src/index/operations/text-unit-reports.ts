/**
 * LLM community reports over text-unit contexts (create_community_reports_text with a chat model):
 * one structured-output call per community with a context; a call that fails for good is recorded
 * for the caller's max_failed_fraction instead of stopping the run.
 */
import { LlmError } from '../../errors.js'
import type { ChatModel } from '../../llm/types.js'
import type { CommunityReportDraft } from './community-reports/render.js'
import { countReuse, reportWriter, type StableReports, type WrittenReport } from './community-reports/report-reuse.js'
import type { ReportRunResult } from './community-reports/request.js'
import type { TextUnitContext } from './text-unit-report-context.js'

export interface TextReportOptions {
  /** Template with {input_text} and {max_report_length}. */
  readonly prompt: string
  readonly maxReportLength: number
}

/** Reports level by level, deepest first; requests of a level are issued together (the LLM layer bounds concurrency). */
export async function generateTextReports(
  contexts: readonly TextUnitContext[],
  options: TextReportOptions,
  services: { chat: ChatModel; signal?: AbortSignal; onCommunityDone?: () => void; stable?: StableReports },
): Promise<ReportRunResult> {
  const result: ReportRunResult = { drafts: [], failures: [], attempted: 0 }
  // Reports kept by canonical context (text units as identities), as graph reports are (report-reuse.ts).
  const write = reportWriter(options, services)
  const levels = [...new Set(contexts.map((c) => c.level))].sort((a, b) => b - a)
  for (const level of levels) {
    const batch = contexts.filter((c) => c.level === level && c.text !== '').sort((a, b) => a.community - b.community)
    const outcomes = await Promise.allSettled(batch.map((c) => write(c.community, c).finally(services.onCommunityDone)))
    outcomes.forEach((outcome, i) => {
      result.attempted++
      if (outcome.status === 'fulfilled') {
        result.drafts.push(draft(batch[i]!, outcome.value))
        countReuse(result, outcome.value)
      } else if (outcome.reason instanceof LlmError) {
        result.failures.push({ community: batch[i]!.community, reason: outcome.reason.message, error: outcome.reason })
      } else throw outcome.reason
    })
  }
  return result
}

function draft(context: TextUnitContext, written: WrittenReport): CommunityReportDraft {
  return { community: context.community, level: context.level, ...written.content }
}
