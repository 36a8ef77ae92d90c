/**
 * Hybrid search: vector, BM25 and graph-path rankings fused by RRF, structure bonuses on top,
 * the best passages and community reports labelled [S#] for the model to cite, then the answer's
 * citations checked. `explain` (or no chat model) prints the ranking instead of asking the model.
 * A conversation history is used as in basic search: its recent questions join the text the three
 * signals search with (a follow-up finds its subject), and the turns are shown before the sources.
 */
import type { Settings } from '../../config/index.js'
import { passageHistory } from '../context/history.js'
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import { checkCitations, type CitedReference, type HybridWarning } from '../hybrid/citations.js'
import { buildHybridContext, type ExternalPassage, type HybridContext, type HybridSource } from '../hybrid/context.js'
import { explainRows, renderExplain, type ExplainRow } from '../hybrid/explain.js'
import { degreeShares } from '../hybrid/bonuses.js'
import { HYBRID_ANSWER_PROMPT } from '../hybrid/prompts.js'
import { bestPassages, passageList } from './offline.js'
import { rankCandidates } from '../hybrid/ranking.js'
import { rerankCandidates, rerankStage } from '../hybrid/rerank.js'
import { bm25List, graphSignal, questionVector, vectorList } from '../hybrid/signals.js'
import type { HybridTables } from '../hybrid/tables.js'
import type { SearchServices } from '../services.js'
import type { QuestionInput, SearchContext } from './types.js'

export interface HybridOptions {
  explain: boolean
  external: readonly ExternalPassage[]
  /** LanceDB folder of the index (the full-text table lives there too). */
  dbUri: string
}

/** What hybrid search adds to a search result (`--json` prints it). */
export interface HybridReport {
  sources: HybridSource[]
  references: CitedReference[]
  entities: Array<{ name: string; freq: number }>
  warnings: HybridWarning[]
  ranking: ExplainRow[]
  /** The ranking as a markdown table. */
  explainText: string
  /** True when no answer was asked of a model (explain or offline). */
  answered: boolean
}

export interface HybridSearchContext extends SearchContext {
  hybrid: HybridReport
}

export async function* runHybridSearch(
  input: QuestionInput,
  tables: HybridTables,
  settings: Settings,
  services: SearchServices,
  options: HybridOptions,
): AsyncGenerator<string, HybridSearchContext, undefined> {
  const s = settings.hybrid_search
  const warnings: HybridWarning[] = []
  const history = passageHistory(
    input.query,
    input.history,
    input.historyMaxTurns,
    s.max_context_tokens,
    services.countTokens,
  )
  const searchText = history.searchText === '' ? input.query : history.searchText
  const needVector = s.use_vector || s.top_communities > 0
  const vector = needVector ? await questionVector(searchText, services, warnings) : undefined
  const { lists, graph } = await signalLists(searchText, vector, tables, settings, services, options.dbUri, warnings)
  const units = new Map(tables.text_units.map((u) => [u.id, u]))
  const composite = rankCandidates(rankingInput(lists, graph, tables, s, units))
  const stage = rerankStage(settings.rerank)
  const unitText = (id: string) => units.get(id)?.text ?? ''
  const ranked =
    stage === undefined ? composite : await rerankCandidates(composite, unitText, searchText, stage, warnings)
  const context = buildHybridContext({
    ranked,
    units,
    documentTitles: tables.document_titles,
    topN: s.top_n,
    external: options.external,
    reports: await topReports(vector, tables, s.top_communities, services),
    // Two hops can reach much of a graph: the context shows the nearest entities only.
    reached: (graph?.reached ?? []).slice(0, s.graph_top_k),
    maxTokens: history.room,
    countTokens: services.countTokens,
  })
  const turns = history.block
  const records =
    turns.records.length > 0 ? { 'conversation history': turns.records, ...context.records } : context.records
  const contextText = turns.text === '' ? context.text : `${turns.text}\n${context.text}`
  const unitNumber = (id: string) => String(units.get(id)?.human_readable_id ?? id)
  const report = unansweredReport(
    explainRows(ranked, context.sources, unitNumber),
    context,
    graph,
    warnings,
    unitNumber,
  )
  const done = (): HybridSearchContext => ({ records, text: contextText, hybrid: report })
  if (options.explain || services.chat === undefined) {
    yield offlineText(context, report, services.chat === undefined ? input.query : undefined, unitNumber)
    return done()
  }
  const answer = yield* streamAnswer(input, contextText, s.prompt, services.chat)
  const cited = checkCitations(answer, context.sources)
  report.references = cited.references
  report.warnings = [...warnings, ...cited.warnings]
  report.answered = true
  return done()
}

type HybridSettings = Settings['hybrid_search']
type GraphSignal = Awaited<ReturnType<typeof graphSignal>>

/** The vector, BM25 and graph-path rankings (the ones switched off are empty, the graph's left out). */
async function signalLists(
  searchText: string,
  vector: number[] | undefined,
  tables: HybridTables,
  settings: Settings,
  services: SearchServices,
  dbUri: string,
  warnings: HybridWarning[],
) {
  const s = settings.hybrid_search
  const lists = [
    s.use_vector
      ? await vectorList(vector, s.vector_top_k, services, warnings)
      : { signal: 'vector' as const, hits: [] },
    s.use_bm25 ? await bm25List(searchText, tables, dbUri, s, warnings) : { signal: 'bm25' as const, hits: [] },
  ]
  const graph = s.use_graph ? await graphSignal(searchText, tables, settings, services, warnings, vector) : undefined
  if (graph !== undefined) lists.push(graph.list)
  return { lists, graph }
}

/** What the fusion and the structure bonuses rank with, from the settings and the index tables. */
function rankingInput(
  lists: Parameters<typeof rankCandidates>[0]['lists'],
  graph: GraphSignal | undefined,
  tables: HybridTables,
  s: HybridSettings,
  units: ReadonlyMap<string, unknown>,
): Parameters<typeof rankCandidates>[0] {
  return {
    lists,
    graphDetail: graph?.detail ?? new Map(),
    rrfK: s.rrf_k,
    edgeSeedK: s.edge_seed_k,
    edges: tables.chunk_edges,
    unitEntities: new Map(tables.text_units.map((u) => [u.id, new Set(u.entity_ids ?? [])])),
    questionEntities: new Set((graph?.matched ?? []).map((e) => e.id)),
    degreeShare: s.use_degree ? degreeShares(tables.entities) : new Map(),
    weights: {
      sharedEntity: s.shared_entity_weight,
      cooccurrence: s.cooccurrence_weight,
      degree: s.use_degree ? s.degree_weight : 0,
      edgeWeights: s.edge_weights,
    },
    knownUnits: new Set(units.keys()),
    scoring: s.scoring === 'weighted' ? { mode: 'weighted', bm25Weight: s.bm25_weight } : { mode: 'rrf' },
  }
}

/** The report before any answer: sources, question entities and the ranking (references come with the answer). */
function unansweredReport(
  ranking: ExplainRow[],
  context: HybridContext,
  graph: GraphSignal | undefined,
  warnings: HybridWarning[],
  unitNumber: (id: string) => string,
): HybridReport {
  return {
    sources: context.sources,
    references: [],
    entities: (graph?.matched ?? []).map((e) => ({ name: e.title, freq: e.frequency ?? 0 })),
    warnings,
    ranking,
    explainText: renderExplain(ranking, unitNumber),
    answered: false,
  }
}

/** Streams the model's answer over the labelled context; returns it whole. */
async function* streamAnswer(
  input: QuestionInput,
  contextText: string,
  prompt: string | null,
  chat: NonNullable<SearchServices['chat']>,
): AsyncGenerator<string, string, undefined> {
  const system = formatPrompt(prompt === null ? HYBRID_ANSWER_PROMPT : loadPrompt(prompt, '', 'hybrid_search.prompt'), {
    context_data: contextText,
    response_type: input.responseType,
  })
  let answer = ''
  for await (const chunk of chat.stream('response', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: input.query },
    ],
  })) {
    answer += chunk
    yield chunk
  }
  return answer
}

/** Reports most similar to the question (community_full_content); none without a question vector or that table. */
async function topReports(vector: number[] | undefined, tables: HybridTables, k: number, services: SearchServices) {
  if (vector === undefined || k === 0 || tables.community_reports.length === 0) return []
  if (!(await services.vectors.hasTable('community_full_content'))) return []
  const byId = new Map(tables.community_reports.map((r) => [r.id, r]))
  const hits = await services.vectors.search('community_full_content', vector, k)
  return hits.flatMap((h) => {
    const report = byId.get(h.id)
    return report === undefined ? [] : [{ report, score: h.score }]
  })
}

/**
 * Explain or offline output: the ranking table, led offline (`offlineQuestion` set) by the sentences
 * of the cited sources that best match the question and the cited context (explain is about the ranking).
 */
function offlineText(
  context: HybridContext,
  report: HybridReport,
  offlineQuestion: string | undefined,
  unitNumber: (id: string) => string,
): string {
  const parts: string[] = []
  if (offlineQuestion !== undefined) {
    const best = bestPassages(
      offlineQuestion,
      context.sources.map((s) => ({ id: s.label, text: context.texts.get(s.label) ?? '' })),
    )
    parts.push(
      `_No completion model is configured (hybrid_search.completion_model_id is null), so ${best.length > 0 ? 'here are the passages that best match the question, then ' : 'this is '}the cited context an answer would be based on, and its ranking._`,
    )
    if (best.length > 0) parts.push(`## Best passages\n\n${passageList(best, (label) => `[${label}]`)}`)
    const name = (s: HybridSource) =>
      s.kind === 'text_unit' ? `text unit ${unitNumber(s.id)}` : `${s.kind.replace('_', ' ')} ${s.id}`
    parts.push(
      `## Sources\n\n${context.sources.map((s) => `### [${s.label}] ${name(s)} (${s.reason})\n\n${context.texts.get(s.label)!.trim()}\n`).join('\n')}`,
    )
  }
  if (report.entities.length > 0)
    parts.push(`## Question entities\n\n${report.entities.map((e) => `- ${e.name} (frequency ${e.freq})`).join('\n')}`)
  parts.push(`## Ranking\n\n${report.explainText}`)
  return `${parts.join('\n\n')}\n`
}
