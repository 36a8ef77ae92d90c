/**
 * DRIFT search: primer over the reports most similar to a hypothetical answer, follow-up local
 * steps chosen by score, and a final reduce of every answer under data_max_tokens.
 */
import type { Settings } from '../../config/index.js'
import { QueryError } from '../../errors.js'
import { formatPrompt, loadPrompt } from '../../llm/prompt-template.js'
import type { LocalIndex } from '../context/local.js'
import { float, plainRecord } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { newAction, runEpochs, type DriftAction } from './drift-actions.js'
import { primeDrift, type PrimerFollowUp } from './drift-primer.js'
import type { QuestionInput, SearchRun } from './types.js'

export async function* runDriftSearch(input: QuestionInput, index: LocalIndex, settings: Settings['drift_search'], services: SearchServices): SearchRun {
  if (services.chat === undefined) {
    throw new QueryError('DRIFT search needs a chat model: set drift_search.completion_model_id to one of completion_models (offline mode answers only local and basic search)')
  }
  if (input.query.trim() === '') throw new QueryError('DRIFT search needs a non-empty question')
  const reports = [...index.reportsByCommunity.values()]
  const primer = await primeDrift(input.query, reports, { topK: settings.drift_k_followups, folds: settings.primer_folds, maxTokens: settings.primer_llm_max_tokens }, services)
  const actions = primerActions(primer.followUps)
  const template = loadPrompt(settings.prompt, 'drift_search_system_prompt.txt', 'drift_search.prompt')
  services.logger.debug(`DRIFT primer: ${primer.reports.length} reports, ${actions.length} follow-ups`)
  await runEpochs(actions, { globalQuery: input.query, template, index, settings, services })

  const notes = reduceNotes([primer.answer, ...actions.flatMap((a) => (a.answer ? [a.answer] : []))], settings.data_max_tokens, services.countTokens)
  const records = {
    primer_reports: primer.reports.map(({ report, similarity }) => plainRecord({ id: report.community, title: report.title, similarity: float(similarity) })),
    actions: actions.map((a, i) => ({
      id: i,
      parent: a.parent,
      query: a.query,
      score: a.score ?? '',
      status: a.failed ? 'failed' : a.answer === undefined ? 'not run' : 'answered',
      answer: a.answer ?? '',
    })),
  }
  const reducePrompt = loadPrompt(settings.reduce_prompt, 'drift_reduce_prompt.txt', 'drift_search.reduce_prompt')
  const system = formatPrompt(reducePrompt, { context_data: notes, response_type: input.responseType })
  yield* services.chat.stream('reduce', {
    messages: [{ role: 'system', content: system }, { role: 'user', content: input.query }],
    callArgs: reduceCallArgs(settings),
  })
  return { records, text: notes }
}

/**
 * One action per distinct primer question, prioritised by the score of the fold that asked it
 * (the best, when two folds ask the same); best first, ties in fold order.
 */
function primerActions(followUps: readonly PrimerFollowUp[]): DriftAction[] {
  const best = new Map<string, number>()
  for (const { query, score } of followUps) best.set(query, Math.max(best.get(query) ?? Number.NEGATIVE_INFINITY, score))
  return [...best].sort((a, b) => b[1] - a[1]).map(([query, score]) => newAction(query, -1, score))
}

/** Notes in discovery order (primer first), each kept while the total fits the budget. */
export function reduceNotes(answers: readonly string[], budget: number, countTokens: (text: string) => number): string {
  const parts: string[] = []
  let used = 0
  for (const answer of answers) {
    const text = `----Note ${parts.length + 1}----\n${answer.trim()}`
    const cost = countTokens(`${text}\n\n`)
    if (used + cost > budget) continue
    parts.push(text)
    used += cost
  }
  return parts.join('\n\n')
}

function reduceCallArgs(s: Settings['drift_search']): Record<string, unknown> {
  const args: Record<string, unknown> = { temperature: s.reduce_temperature }
  if (s.reduce_max_tokens !== null) args.max_tokens = s.reduce_max_tokens
  if (s.reduce_max_completion_tokens !== null) args.max_completion_tokens = s.reduce_max_completion_tokens
  return args
}
