/**
 * Dynamic community selection for global search: rate reports top-down with the chat model and
 * descend only into children of relevant ones, so global search maps over the relevant part of
 * the hierarchy. Differences from the reference: the walk starts at the hierarchy's roots
 * (reports without a reported parent) rather than requiring level 0, repeated ratings are
 * averaged, and a rating that fails is counted and treated as not relevant (never kept silently).
 */
import { QueryError } from '../../errors.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import { childrenByCommunity } from '../context/communities.js'
import { mapBounded } from '../../storage/bounded-map.js'
import type { SearchServices } from '../services.js'
import { replyObject, toNumber } from './json-reply.js'
import { RATE_REPORT_PROMPT } from './prompts.js'
import { isModelFailure } from './model-failure.js'
import type { IndexCommunity, IndexReport } from '../load-index.js'

export interface DynamicSelectionOptions {
  threshold: number
  keepParent: boolean
  numRepeats: number
  useSummary: boolean
  maxLevel: number
}

export async function selectReportsDynamically(
  query: string,
  reports: readonly IndexReport[],
  communities: readonly IndexCommunity[],
  options: DynamicSelectionOptions,
  services: SearchServices,
): Promise<{ reports: IndexReport[]; ratings: Map<number, number | undefined> }> {
  const byCommunity = new Map(reports.map((r) => [r.community, r]))
  const children = childrenByCommunity(reports, communities)
  const ratings = new Map<number, number | undefined>()
  const relevant = new Set<number>()
  let queue = reports.filter((r) => !byCommunity.has(r.parent)).map((r) => r.community)
  let depth = Math.min(...queue.map((c) => byCommunity.get(c)!.level))
  while (queue.length > 0) {
    const scores = await mapBounded(queue, services.concurrency, (c) =>
      rateReport(query, byCommunity.get(c)!, options, services),
    )
    const next: number[] = []
    queue.forEach((community, i) => {
      ratings.set(community, scores[i])
      if (scores[i] === undefined || scores[i]! < options.threshold) return
      relevant.add(community)
      for (const child of children.get(community) ?? [])
        if (byCommunity.has(child) && !ratings.has(child)) next.push(child)
      const parent = byCommunity.get(community)!.parent
      if (!options.keepParent) relevant.delete(parent)
    })
    depth += 1
    queue = next
    // Nothing relevant so far: sweep the next level down rather than giving up at the roots.
    while (queue.length === 0 && relevant.size === 0 && depth <= options.maxLevel) {
      const level = depth
      queue = reports.filter((r) => r.level === level && !ratings.has(r.community)).map((r) => r.community)
      if (queue.length === 0) depth += 1
    }
  }
  if (ratings.size > 0 && [...ratings.values()].every((r) => r === undefined)) {
    throw new QueryError(
      'dynamic community selection failed: no community report could be rated (see the LLM errors in the log)',
    )
  }
  return { reports: reports.filter((r) => relevant.has(r.community)), ratings }
}

/** Mean of num_repeats ratings; undefined when every attempt failed. */
async function rateReport(
  query: string,
  report: IndexReport,
  options: DynamicSelectionOptions,
  services: SearchServices,
): Promise<number | undefined> {
  const chat = services.chat!
  const description = options.useSummary ? report.summary : report.full_content
  const system = formatPrompt(RATE_REPORT_PROMPT, { description })
  const values: number[] = []
  for (let i = 0; i < options.numRepeats; i++) {
    try {
      const result = await chat.complete('rating', {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: query },
        ],
        responseFormat: { type: 'json_object', required: ['rating'] },
      })
      const rating = toNumber(replyObject(result)?.rating)
      if (rating !== undefined) values.push(rating)
      else services.meter.recordFailure('rating')
    } catch (error) {
      if (!isModelFailure(error)) throw error
      services.meter.recordFailure('rating')
      services.logger.warn(`rating community ${report.community} failed: ${(error as Error).message}`)
    }
  }
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length
}
