/**
 * DRIFT search: primer over the reports most similar to a hypothetical answer, follow-up local
 * steps chosen by score, and a final reduce of every answer under data_max_tokens. A conversation
 * history reaches every phase: the HyDE and primer prompts, each local step and the reduce.
 */
import type { Settings } from '../../config/index.js'
import { QueryError } from '../../errors.js'
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import { HISTORY_BUDGET_SHARE, historyBlock } from '../context/history.js'
import type { LocalIndex } from '../context/local.js'
import { float, plainRecord, type ContextRecord, type ContextRecords } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { newAction, runEpochs, type DriftAction } from './drift-actions.js'
import { primeDrift, type PrimerFollowUp, type PrimerResult } from './drift-primer.js'
import { extractiveReportAnswer } from './offline-reports.js'
import type { QuestionInput, SearchRun } from './types.js'

export async function* runDriftSearch(
  input: QuestionInput,
  index: LocalIndex,
  settings: Settings['drift_search'],
  services: SearchServices,
): SearchRun {
  if (services.chat === undefined) {
    // Offline there is no primer or follow-up to run: DRIFT starts from the reports, so it shows those.
    const offline = extractiveReportAnswer(
      input.query,
      [...index.reportsByCommunity.values()],
      'drift_search.completion_model_id',
    )
    yield offline.answer
    return offline.context
  }
  if (input.query.trim() === '') throw new QueryError('DRIFT search needs a non-empty question')
  const conversation = (budget: number) =>
    historyBlock(input.history, input.historyMaxTurns, Math.floor(budget * HISTORY_BUDGET_SHARE), services.countTokens)
  const reports = [...index.reportsByCommunity.values()]
  const question = withConversation(input.query, conversation(settings.primer_llm_max_tokens).text)
  const primer = await primeDrift(
    question,
    reports,
    { topK: settings.drift_k_followups, folds: settings.primer_folds, maxTokens: settings.primer_llm_max_tokens },
    services,
  )
  const actions = primerActions(primer.followUps)
  const template = loadPrompt(settings.prompt, 'drift_search_system_prompt.txt', 'drift_search.prompt')
  services.logger.debug(`DRIFT primer: ${primer.reports.length} reports, ${actions.length} follow-ups`)
  const { history, historyMaxTurns } = input
  await runEpochs(actions, { globalQuery: input.query, history, historyMaxTurns, template, index, settings, services })

  const reduceHistory = conversation(settings.data_max_tokens)
  const notes = reduceNotes(
    [primer.answer, ...actions.flatMap((a) => (a.answer ? [a.answer] : []))],
    settings.data_max_tokens - reduceHistory.tokens,
    services.countTokens,
  )
  const text = reduceHistory.text === '' ? notes : `${reduceHistory.text}\n${notes}`
  const records = driftRecords(primer, actions, reduceHistory.records)
  const reducePrompt = loadPrompt(settings.reduce_prompt, 'drift_reduce_prompt.txt', 'drift_search.reduce_prompt')
  const system = formatPrompt(reducePrompt, { context_data: text, response_type: input.responseType })
  yield* services.chat.stream('reduce', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: input.query },
    ],
    callArgs: reduceCallArgs(settings),
  })
  return { records, text }
}

function driftRecords(primer: PrimerResult, actions: readonly DriftAction[], history: ContextRecord[]): ContextRecords {
  return {
    ...(history.length > 0 ? { 'conversation history': history } : {}),
    primer_reports: primer.reports.map(({ report, similarity }) =>
      plainRecord({ id: report.community, title: report.title, similarity: float(similarity) }),
    ),
    actions: actions.map((a, i) => ({
      id: i,
      parent: a.parent,
      query: a.query,
      score: a.score ?? '',
      status: a.failed ? 'failed' : a.answer === undefined ? 'not run' : 'answered',
      answer: a.answer ?? '',
    })),
  }
}

/** The question for the user-only HyDE and primer prompts, with the conversation it continues. */
function withConversation(query: string, historyText: string): string {
  return historyText === '' ? query : `${query}\n\nThe question continues this conversation:\n${historyText}`
}

/**
 * One action per distinct primer question, prioritised by the score of the fold that asked it
 * (the best, when two folds ask the same); best first, ties in fold order.
 */
function primerActions(followUps: readonly PrimerFollowUp[]): DriftAction[] {
  const best = new Map<string, number>()
  for (const { query, score } of followUps)
    best.set(query, Math.max(best.get(query) ?? Number.NEGATIVE_INFINITY, score))
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
