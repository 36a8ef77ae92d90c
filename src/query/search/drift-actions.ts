/**
 * DRIFT, second phase: follow-up questions become actions, each answered by a local search step
 * that returns an answer, a score and further follow-ups. Each epoch runs the pending actions whose
 * parent answer scored highest (the reference picks them at random), with bounded concurrency.
 * Identical questions collapse into one action.
 */
import type { Settings } from '../../config/index.js'
import { QueryError } from '../../errors.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import type { ConversationTurn } from '../context/history.js'
import type { LocalContextOptions, LocalIndex } from '../context/local.js'
import { buildLocalContext } from '../context/local.js'
import { mapBounded } from '../../storage/bounded-map.js'
import type { SearchServices } from '../services.js'
import { replyObject, toNumber } from './json-reply.js'
import { isModelFailure } from './model-failure.js'

export interface DriftAction {
  query: string
  /** Index of the action whose answer proposed this one (-1 for the primer's follow-ups). */
  parent: number
  /** Score of the answer that proposed it (the primer fold's for the first ones): its priority. */
  priority: number
  answer: string | undefined
  score: number | undefined
  followUps: string[]
  failed: boolean
}

/** Local steps always get some room for entities and relationships; the defaults (0.1 + 0.9) leave none. */
const MIN_LOCAL_SHARE = 0.25

export function driftLocalOptions(s: Settings['drift_search'], historyMaxTurns: number): LocalContextOptions {
  let communityProp = s.local_search_community_prop
  let textUnitProp = s.local_search_text_unit_prop
  const shares = communityProp + textUnitProp
  if (1 - shares < MIN_LOCAL_SHARE && shares > 0) {
    const scale = (1 - MIN_LOCAL_SHARE) / shares
    communityProp *= scale
    textUnitProp *= scale
  }
  return {
    communityProp,
    textUnitProp,
    topKEntities: s.local_search_top_k_mapped_entities,
    topKRelationships: s.local_search_top_k_relationships,
    maxContextTokens: s.local_search_max_data_tokens,
    historyMaxTurns,
  }
}

export interface ActionRunner {
  globalQuery: string
  /** The conversation the question continues: shown to every step, as local search shows it. */
  history: readonly ConversationTurn[]
  historyMaxTurns: number
  template: string
  index: LocalIndex
  settings: Settings['drift_search']
  services: SearchServices
}

/** Runs up to n_depth epochs over the action list (mutated in place: answers and new follow-ups). */
export async function runEpochs(actions: DriftAction[], runner: ActionRunner): Promise<void> {
  const known = new Set(actions.map((a) => a.query))
  for (let epoch = 0; epoch < runner.settings.n_depth; epoch++) {
    const pending = actions
      .map((action, i) => ({ action, i }))
      .filter(({ action }) => action.answer === undefined && !action.failed)
      .sort((a, b) => b.action.priority - a.action.priority || a.i - b.i)
      .slice(0, runner.settings.drift_k_followups)
    if (pending.length === 0) return
    await mapBounded(pending, runner.settings.concurrency, ({ action }) => runAction(action, runner))
    for (const { action, i } of pending) {
      for (const query of action.followUps) {
        if (known.has(query)) continue
        known.add(query)
        actions.push(newAction(query, i, action.score ?? 0))
      }
    }
  }
}

export function newAction(query: string, parent: number, priority: number): DriftAction {
  return { query, parent, priority, answer: undefined, score: undefined, followUps: [], failed: false }
}

async function runAction(action: DriftAction, runner: ActionRunner): Promise<void> {
  const { settings, services } = runner
  try {
    const context = await buildLocalContext(
      action.query,
      runner.history,
      runner.index,
      driftLocalOptions(settings, runner.historyMaxTurns),
      services,
    )
    const system = formatPrompt(runner.template, {
      context_data: context.text,
      response_type: 'multiple paragraphs',
      global_query: runner.globalQuery,
      followups: settings.drift_k_followups,
    })
    const result = await services.chat!.complete('action', {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: action.query },
      ],
      responseFormat: { type: 'json_object', required: ['response'] },
      callArgs: actionCallArgs(settings),
    })
    const reply = replyObject(result)
    if (reply === undefined || typeof reply.response !== 'string')
      throw new QueryError('the reply has no "response" text')
    action.answer = reply.response
    action.score = toNumber(reply.score) ?? 0
    const followUps = Array.isArray(reply.follow_up_queries) ? reply.follow_up_queries : []
    action.followUps = followUps.filter((q): q is string => typeof q === 'string' && q.trim() !== '')
  } catch (error) {
    if (!isModelFailure(error)) throw error
    action.failed = true
    services.meter.recordFailure('action')
    services.logger.warn(`DRIFT step "${action.query}" failed and was skipped: ${(error as Error).message}`)
  }
}

function actionCallArgs(s: Settings['drift_search']): Record<string, unknown> {
  const args: Record<string, unknown> = { temperature: s.local_search_temperature, top_p: s.local_search_top_p }
  if (s.local_search_n !== 1) args.n = s.local_search_n
  if (s.local_search_llm_max_gen_tokens !== null) args.max_tokens = s.local_search_llm_max_gen_tokens
  if (s.local_search_llm_max_gen_completion_tokens !== null)
    args.max_completion_tokens = s.local_search_llm_max_gen_completion_tokens
  return args
}
