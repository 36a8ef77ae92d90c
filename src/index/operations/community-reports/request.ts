/** One community-report call: the prompt, the JSON schema of the reply, and its validation. */
import { LlmError } from '../../../errors.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { ChatModel, JsonSchemaFormat } from '../../../llm/types.js'
import type { CommunityReportDraft, ReportContent } from './render.js'

const REPORT_RESPONSE_FORMAT: JsonSchemaFormat = {
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

export interface ReportFailure {
  community: number
  reason: string
  error: Error
}

/** What a report writer returns: the reports, the communities that failed for good, and how many were tried. */
export interface ReportRunResult {
  drafts: CommunityReportDraft[]
  failures: ReportFailure[]
  /** Communities that had a context and were sent to the model. */
  attempted: number
  /** Reports taken from an earlier identical context (renumbered) instead of a model call. */
  reused?: number
  /** Reports of a context recorded unchanged (by fingerprint) whose model reply was replayed, not asked again. */
  unchanged?: number
  /** Reports kept by an update although their context changed, within the bound (stale-reuse.ts). */
  keptStale?: number
  /** The largest context change among those, as a Jaccard distance of rows. */
  maxStaleChange?: number
}

export interface ReportRequestOptions {
  /** The prompt template with {input_text} and {max_report_length}. */
  prompt: string
  maxReportLength: number
}

/**
 * Sends one report prompt; an unusable reply is an LlmError, so callers count it like a failed call.
 * With the report, the model cache's key of the reply (absent when the model has no cache).
 */
export async function requestReport(
  contextText: string,
  options: ReportRequestOptions,
  services: { chat: ChatModel; signal?: AbortSignal },
): Promise<{ report: ReportContent; replyKey?: string }> {
  const prompt = formatPrompt(options.prompt, {
    input_text: contextText,
    max_report_length: String(options.maxReportLength),
  })
  const reply = await services.chat.complete({
    messages: [{ role: 'user', content: prompt }],
    responseFormat: REPORT_RESPONSE_FORMAT,
    ...(services.signal === undefined ? {} : { signal: services.signal }),
  })
  const report = parseReportContent(reply.json ?? parseJson(reply.content))
  if (report === undefined) {
    throw new LlmError('the model returned a community report that does not match the report schema', {
      model: services.chat.model,
      attempts: 1,
    })
  }
  return reply.cacheKey === undefined ? { report } : { report, replyKey: reply.cacheKey }
}

/** Checks the reply's shape; a numeric string rating is accepted as the number it spells. */
function parseReportContent(value: unknown): ReportContent | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  const rating = typeof v.rating === 'string' && v.rating.trim() !== '' ? Number(v.rating) : v.rating
  if (typeof v.title !== 'string' || typeof v.summary !== 'string' || typeof v.rating_explanation !== 'string')
    return undefined
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
