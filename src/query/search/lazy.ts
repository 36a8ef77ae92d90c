/**
 * Lazy search (LazyGraphRAG-class): the index costs no model call; the model is spent at query time
 * under one knob, the relevance-test budget. The question is refined into sub-questions; for each,
 * text units are ranked (vectors, + BM25), communities by their best units, and a walk down the
 * community hierarchy has the relevance model judge batches of units sentence by sentence; the
 * claims of the relevant sentences are extracted, ranked, trimmed to the context window and answered
 * from, with citations checked.
 * Every merge is by sub-question order and stable keys, so concurrent calls finishing in any order
 * give the same answer and report.
 */
import type { Settings } from '../../config/index.js'
import { QueryError } from '../../errors.js'
import { mapBounded } from '../../storage/bounded-map.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import type { ContextRecords } from '../context/table-format.js'
import { checkLazyCitations } from '../lazy/citations.js'
import { CLAIM_TOKENS_PER_UNIT, claimUnits, rankClaims, sourceOrder, trimClaims, type Claim } from '../lazy/claims.js'
import { extractClaims, refineQuestion, type Passage, type StepContext } from '../lazy/model-steps.js'
import { ANSWER_PROMPT } from '../lazy/prompts.js'
import {
  renderPath,
  subqueryReport,
  usageByModel,
  type LazyReport,
  type LazySubquery,
  type UsedModel,
} from '../lazy/report.js'
import { conceptGraph, renderSubgraph, type ConceptSubgraph, type ConceptUnit } from '../lazy/subgraph.js'
import type { LazyTables } from '../lazy/tables.js'
import { currentFullTextTable } from '../lazy/unit-ranking.js'
import { walkAll, type SubquestionState } from '../lazy/walks.js'
import type { SearchServices } from '../services.js'
import type { MeteredChat } from '../usage.js'
import { NO_DATA_ANSWER } from './prompts.js'
import type { QuestionInput, SearchContext } from './types.js'

export interface LazyOptions {
  budget: number
  subqueries: boolean
  /** Print the path (sub-questions, tests, verdicts) instead of extracting claims and answering. */
  explain: boolean
  /** LanceDB folder of the index (hybrid search's full-text table lives there). */
  dbUri: string
  /** The model of the relevance tests (the chat model unless lazy_search.relevance_model_id names another). */
  relevance: { chat: MeteredChat | undefined; model: UsedModel }
  answerModel: UsedModel
}

export interface LazySearchContext extends SearchContext {
  lazy: LazyReport
}

/** Concepts and links shown per claim call (enough to see what the passages share). */
const CONCEPTS_SHOWN = 30

/** The search's shared state: tables, settings, models and the unit labels. */
interface Run {
  input: QuestionInput
  tables: LazyTables
  s: Settings['lazy_search']
  services: SearchServices
  options: LazyOptions
  answer: StepContext
  relevance: StepContext
  warnings: string[]
  unit: (id: string) => LazyTables['text_units'][number] | undefined
  passage: (id: string) => Passage
  label: (id: string) => string
  subgraph: (units: readonly ConceptUnit[]) => ConceptSubgraph
}

export async function* runLazySearch(
  input: QuestionInput,
  tables: LazyTables,
  settings: Settings,
  services: SearchServices,
  options: LazyOptions,
): AsyncGenerator<string, LazySearchContext, undefined> {
  const run = startRun(input, tables, settings, services, options)
  const questions = options.subqueries
    ? await refineQuestion(input.query, run.s.subquery_count, run.answer)
    : [input.query]
  const { relevantBySubquery, relevantIds, report, states } = await exploreAll(
    run,
    questions,
    settings.hybrid_search.fts_table,
  )
  if (options.explain) {
    const text = renderPath(report)
    yield text
    return finish(run, report, { records: {}, text }, [])
  }
  const read = claimUnits(relevantBySubquery, Math.ceil(run.s.max_context_tokens / CLAIM_TOKENS_PER_UNIT))
  const claims = await claimsOf(run, states, read)
  const order = new Map(relevantIds.map((id, i) => [id, i]))
  const trimmed = trimClaims(rankClaims(claims, order), run.s.max_context_tokens, run.label, services.countTokens)
  report.claims = {
    units: read.reduce((n, ids) => n + ids.length, 0),
    extracted: claims.length,
    kept: trimmed.kept.length,
    dropped: trimmed.dropped,
  }
  const listed = sourceOrder(
    states.map((q) => q.unitRank),
    relevantBySubquery,
  )
  const context = { records: claimRecords(run, trimmed.kept, listed), text: trimmed.text }
  if (trimmed.kept.length === 0) {
    yield NO_DATA_ANSWER
    return finish(run, report, context, [])
  }
  const system = formatPrompt(ANSWER_PROMPT, { claims: trimmed.text, response_type: input.responseType })
  let answer = ''
  for await (const chunk of run.answer.chat.stream('answer', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: input.query },
    ],
  })) {
    answer += chunk
    yield chunk
  }
  return finish(run, report, context, trimmed.kept, answer)
}

/**
 * Every sub-question's walk under its share of the budget, unspent budget passed on
 * (src/query/lazy/walks.ts); the report merged in sub-question order.
 */
async function exploreAll(
  run: Run,
  questions: readonly string[],
  fullTextName: string,
): Promise<{ relevantBySubquery: string[][]; relevantIds: string[]; report: LazyReport; states: SubquestionState[] }> {
  const dbUri = run.options.dbUri
  const table = await currentFullTextTable(dbUri, fullTextName, run.tables.text_units)
  const fullText = table === undefined ? undefined : { dbUri, table }
  const context = {
    settings: run.s,
    budget: run.options.budget,
    communities: run.tables.communities,
    services: run.services,
    relevance: run.relevance,
    passage: run.passage,
  }
  const { states, walks, shares } = await walkAll(context, questions, fullText)
  const reports = walks.map((w, i) => subqueryReport(questions[i]!, shares[i]!, states[i]!.unitRank.size, w, run.label))
  const relevantIds = [...new Set(walks.flatMap((w) => w.relevant))]
  const calls = states.reduce((n, q) => n + q.calls, 0)
  const report = baseReport(run, reports, relevantIds, fullText !== undefined, calls)
  return { relevantBySubquery: walks.map((w) => w.relevant), relevantIds, report, states }
}

function startRun(
  input: QuestionInput,
  tables: LazyTables,
  settings: Settings,
  services: SearchServices,
  options: LazyOptions,
): Run {
  const chat = services.chat
  if (chat === undefined)
    throw new QueryError(
      'lazy search needs a chat model: set lazy_search.completion_model_id to one of completion_models (the index itself needs none)',
    )
  const warnings: string[] = []
  const units = new Map(tables.text_units.map((u) => [u.id, u]))
  const label = (id: string) => String(units.get(id)?.human_readable_id ?? id)
  if (tables.communities.length === 0)
    warnings.push('the index has no communities, so lazy search walks the ranked text units in groups instead')
  return {
    input,
    tables,
    s: settings.lazy_search,
    services,
    options,
    answer: { chat, services, warnings },
    relevance: { chat: options.relevance.chat ?? chat, services, warnings },
    warnings,
    label,
    unit: (id) => units.get(id),
    subgraph: conceptGraph(tables.entities, tables.relationships),
    passage: (id) => ({ id, label: label(id), text: units.get(id)?.text ?? '' }),
  }
}

function baseReport(
  run: Run,
  subqueries: LazySubquery[],
  relevant: readonly string[],
  bm25: boolean,
  calls: number,
): LazyReport {
  const units = relevant.flatMap((id) => run.unit(id) ?? [])
  const graph = run.subgraph(units)
  const tests = subqueries.reduce((n, q) => n + q.tests, 0)
  return {
    budget: run.options.budget,
    tests,
    relevance_calls: calls,
    bm25,
    subqueries,
    relevant: relevant.map(run.label),
    concepts: {
      count: graph.concepts.length,
      relationships: graph.relationships.length,
      top: graph.concepts.slice(0, 10).map((c) => c.title),
    },
    claims: { units: 0, extracted: 0, kept: 0, dropped: 0 },
    references: [],
    unknown_citations: [],
    usage_by_model: [],
  }
}

/** Claims of each sub-question's relevant units (only their relevant sentences), in batches; merged in batch order. */
async function claimsOf(
  run: Run,
  states: readonly SubquestionState[],
  relevant: readonly string[][],
): Promise<Claim[]> {
  const batches = states.flatMap((state, subquery) => {
    const ids = relevant[subquery]!
    const out = []
    for (let i = 0; i < ids.length; i += run.s.claim_batch_size) {
      const batch = ids.slice(i, i + run.s.claim_batch_size)
      const units = batch.flatMap((id) => run.unit(id) ?? [])
      const concepts = renderSubgraph(run.subgraph(units), CONCEPTS_SHOWN)
      const passages = batch.map((id) => ({ ...run.passage(id), text: (state.verdicts.get(id) ?? []).join(' … ') }))
      out.push({ question: state.question, subquery, passages, concepts })
    }
    return out
  })
  const perBatch = await mapBounded(batches, run.services.concurrency, (b) =>
    extractClaims(b, run.s.claims_per_unit * b.passages.length, run.answer),
  )
  return perBatch.flat()
}

/** The kept claims, best first, and the units they rest on in `listed` order (sourceOrder). */
function claimRecords(run: Run, kept: readonly Claim[], listed: ReadonlyMap<string, number>): ContextRecords {
  const position = (id: string) => listed.get(id) ?? Number.MAX_SAFE_INTEGER
  const cited = [...new Set(kept.flatMap((c) => c.sources))].sort((a, b) => position(a) - position(b))
  return {
    claims: kept.map((c, i) => ({
      id: i + 1,
      claim: c.text,
      score: c.score,
      subquery: c.subquery + 1,
      sources: c.sources.map(run.label).join(', '),
    })),
    sources: cited.map((id) => ({ id: run.unit(id)?.human_readable_id ?? id, text: run.passage(id).text })),
  }
}

/** The context and report once the answer is in: citations checked, usage per model, warnings in a stable order. */
function finish(
  run: Run,
  report: LazyReport,
  context: { records: ContextRecords; text: string },
  kept: readonly Claim[],
  answer = '',
): LazySearchContext {
  const given = new Map(kept.flatMap((c) => c.sources).map((id) => [run.label(id), id]))
  const check = checkLazyCitations(answer, given)
  report.references = check.cited
  report.unknown_citations = check.unknown
  if (check.unknown.length > 0)
    run.warnings.push(`the answer cites Sources (${check.unknown.join(', ')}), which no claim given to it rests on`)
  report.usage_by_model = usageByModel(
    run.services.meter.summary(),
    run.options.answerModel,
    run.options.relevance.model,
  )
  return { ...context, warnings: [...run.warnings].sort(), lazy: report }
}
