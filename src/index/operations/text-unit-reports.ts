/**
 * LLM community reports over text-unit contexts (create_community_reports_text with a chat model):
 * one structured-output call per community with a context; a call that fails for good is recorded
 * for the caller's max_failed_fraction instead of stopping the run.
 */
import { LlmError } from '../../errors.js'
import { formatPrompt } from '../../llm/prompt-template.js'
import type { ChatModel, JsonSchemaFormat } from '../../llm/types.js'
import type { CommunityReportDraft, ReportContent } from './community-reports/render.js'
import type { TextUnitContext } from './text-unit-report-context.js'

export interface TextReportOptions {
  /** Template with {input_text} and {max_report_length}. */
  readonly prompt: string
  readonly maxReportLength: number
}

export interface TextReportFailure {
  readonly community: number
  readonly reason: string
  readonly error: Error
}

export interface TextReportResult {
  drafts: CommunityReportDraft[]
  failures: TextReportFailure[]
  attempted: number
}

export const REPORT_RESPONSE_FORMAT: JsonSchemaFormat = {
  type: 'json_schema',
  name: 'CommunityReportResponse',
  schema: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      summary: { type: 'string' },
      findings: {
        type: 'array',
        items: {
          type: 'object',
          properties: { summary: { type: 'string' }, explanation: { type: 'string' } },
          required: ['summary', 'explanation'],
          additionalProperties: false,
        },
      },
      rating: { type: 'number' },
      rating_explanation: { type: 'string' },
    },
    required: ['title', 'summary', 'findings', 'rating', 'rating_explanation'],
    additionalProperties: false,
  },
}

/** Validates a parsed reply; a numeric-string rating is accepted. */
export function parseReportContent(value: unknown): ReportContent | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  const rating = typeof v.rating === 'string' && v.rating.trim() !== '' ? Number(v.rating) : v.rating
  if (typeof v.title !== 'string' || typeof v.summary !== 'string' || typeof v.rating_explanation !== 'string') return undefined
  if (typeof rating !== 'number' || !Number.isFinite(rating) || !Array.isArray(v.findings)) return undefined
  const findings: ReportContent['findings'][number][] = []
  for (const f of v.findings as unknown[]) {
    const o = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>
    if (typeof o.summary !== 'string' || typeof o.explanation !== 'string') return undefined
    findings.push({ summary: o.summary, explanation: o.explanation })
  }
  return { title: v.title, summary: v.summary, findings, rating, rating_explanation: v.rating_explanation }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

async function reportOne(context: TextUnitContext, chat: ChatModel, options: TextReportOptions, signal?: AbortSignal): Promise<CommunityReportDraft> {
  const prompt = formatPrompt(options.prompt, { input_text: context.text, max_report_length: String(options.maxReportLength) })
  const reply = await chat.complete({
    messages: [{ role: 'user', content: prompt }],
    responseFormat: REPORT_RESPONSE_FORMAT,
    ...(signal === undefined ? {} : { signal }),
  })
  const content = parseReportContent(reply.json ?? parseJson(reply.content))
  if (content === undefined) {
    throw new LlmError('the model returned a community report that does not match the report schema', { model: chat.model, attempts: 1 })
  }
  return { community: context.community, level: context.level, ...content }
}

/** Reports level by level, deepest first; requests of a level are issued together (the LLM layer bounds concurrency). */
export async function generateTextReports(
  contexts: readonly TextUnitContext[],
  options: TextReportOptions,
  services: { chat: ChatModel; signal?: AbortSignal; onCommunityDone?: () => void },
): Promise<TextReportResult> {
  const result: TextReportResult = { drafts: [], failures: [], attempted: 0 }
  const levels = [...new Set(contexts.map((c) => c.level))].sort((a, b) => b - a)
  for (const level of levels) {
    const batch = contexts.filter((c) => c.level === level && c.text !== '').sort((a, b) => a.community - b.community)
    const outcomes = await Promise.allSettled(batch.map((c) => reportOne(c, services.chat, options, services.signal).finally(services.onCommunityDone)))
    outcomes.forEach((outcome, i) => {
      result.attempted++
      if (outcome.status === 'fulfilled') result.drafts.push(outcome.value)
      else if (outcome.reason instanceof LlmError) {
        result.failures.push({ community: batch[i].community, reason: outcome.reason.message, error: outcome.reason })
      } else throw outcome.reason
    })
  }
  return result
}
