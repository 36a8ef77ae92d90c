/**
 * Expected model usage of the workflows that call a model, for the dry-run estimate. Pure: the
 * workflows pass in chunk figures, the token sizes of their prompts and their settings (max_gleanings,
 * report budgets, embed_text batching). Everything the model would
 * produce is guessed with these heuristics, calibrated on the Christmas Carol reference index
 * (GraphRAG 3.x, GPT-4.1-class model, 42 chunks of ~1200 tokens):
 *
 * - Extraction yields 15.5 entity and 21.9 relationship records per 1000 chunk tokens (~45 and
 *   ~42 tokens each) and, with claims on, 8.1 claim records (~140 tokens each). The first reply
 *   holds 2/3 of them; the gleanings share the rest (without gleaning only that 2/3 is found).
 *   Each gleaning re-sends the conversation so far; between gleanings a Y/N loop check is paid.
 * - Distinct entities = 0.68 × entity records; distinct relationships = 0.89 × records.
 * - Summaries: 17 % of entities (3.75 descriptions of ~30 tokens each) and 7 % of relationships
 *   (2.8 descriptions of ~18 tokens) have several descriptions and get one call; replies ~185 and
 *   ~155 tokens.
 * - Communities = 0.23 × distinct entities; each entity sits in 2.18 communities (one per level), a
 *   member costs ~180 context tokens (+40 with claims); contexts are capped at max_input_length and
 *   the largest are trimmed, so the average is 0.85 × min(budget, members × tokens per member).
 *   A report reply is ~1045 tokens: the reference reports written as the compact JSON a
 *   structured-output (json_schema) reply is (1043 o200k; indented JSON, which no such reply
 *   uses, would be ~1130). The Dulce reference index gives 1006.
 * - Fast method: noun-phrase graphs have ~22.8 distinct entities per 1000 chunk tokens; a text-unit
 *   report context averages min(budget, 3 chunks).
 * - Embeddings: chunk texts, `title:description` (~60 tokens) and report full_content (~965 tokens);
 *   one call per batch of batch_size texts or batch_max_tokens tokens.
 * - Every chat request adds 3 tokens and every message 4 tokens of chat-format overhead.
 * - Update dry run: the report workflows and the report embedding count the reports measured on the
 *   previous index (ReportFigures), with its mean community size and text-unit tokens.
 * - Chunk graph (ours, not calibrated on a reference): the sliding batches are counted exactly;
 *   a batch of n units gets n - 1 edges of ~45 tokens back. Cross-document batches are guessed at
 *   one per two chunks, each a unit with two similar units of other documents.
 */
import { slidingWindows } from './chunk-graph/batches.js'

export const ESTIMATE_HEURISTICS = Object.freeze({
  entityRecordsPer1k: 15.5,
  relationshipRecordsPer1k: 21.9,
  claimRecordsPer1k: 8.1,
  entityRecordTokens: 45,
  relationshipRecordTokens: 42,
  claimRecordTokens: 140,
  firstReplyShare: 2 / 3,
  distinctEntityRatio: 0.68,
  distinctRelationshipRatio: 0.89,
  summarizedEntityShare: 0.17,
  summarizedRelationshipShare: 0.07,
  descriptionsPerEntitySummary: 3.75,
  descriptionsPerRelationshipSummary: 2.8,
  entityDescriptionTokens: 30,
  relationshipDescriptionTokens: 18,
  entitySummaryTokens: 185,
  relationshipSummaryTokens: 155,
  communitiesPerEntity: 0.23,
  membershipsPerEntity: 2.18,
  contextTokensPerMember: 180,
  claimContextTokensPerMember: 40,
  contextTrimFactor: 0.85,
  reportReplyTokens: 1045,
  nounPhraseEntitiesPer1k: 22.8,
  textReportContextChunks: 3,
  entityEmbeddingTokens: 60,
  reportEmbeddingTokens: 965,
  requestOverheadTokens: 3,
  messageOverheadTokens: 4,
  chunkEdgeTokens: 45,
  crossDocumentBatchesPerChunk: 0.5,
  crossDocumentNeighbours: 2,
})

/** Chunk count and the tokens of all chunks together: the exact inputs of every estimate. */
export interface ChunkFigures {
  readonly chunks: number
  readonly chunkTokens: number
  /** Chunks of each document (typed-edge batches are cut per document); absent = one document. */
  readonly chunksPerDocument?: readonly number[]
}

/** Chunks per document, in order of each document's first chunk. */
export function chunksPerDocument(rows: ReadonlyArray<{ document_id: string }>): number[] {
  const counts = new Map<string, number>()
  for (const row of rows) counts.set(row.document_id, (counts.get(row.document_id) ?? 0) + 1)
  return [...counts.values()]
}

/** The graph size the estimates rest on, guessed from the chunk tokens by the workflows that build it. */
export interface GuessedGraph {
  entityRecords: number
  relationshipRecords: number
  entities: number
  relationships: number
  claims: number
  communities: number
}

/**
 * The reports an update may write, measured on the previous index (update-reach.ts) rather than
 * guessed from the changed chunks: their count, the mean entities of their communities and the mean
 * tokens of a text unit (the contexts of reports rest on the whole index, not on the changed chunks).
 */
export interface ReportFigures {
  readonly count: number
  readonly members: number
  readonly unitTokens: number
}

/** What an estimate reads: chunk figures, the guessed graph and, for an update, the measured reports. */
export interface UsageInput extends ChunkFigures {
  readonly graph: GuessedGraph
  readonly reports?: ReportFigures
}

/** Calls and tokens of one workflow (fractional until the plan rounds them). */
export interface EstimatedUsage {
  calls: number
  promptTokens: number
  completionTokens: number
}

const H = ESTIMATE_HEURISTICS
export const ZERO: EstimatedUsage = { calls: 0, promptTokens: 0, completionTokens: 0 }

export function add(a: EstimatedUsage, b: EstimatedUsage): EstimatedUsage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  }
}

function scale(u: EstimatedUsage, n: number): EstimatedUsage {
  return { calls: u.calls * n, promptTokens: u.promptTokens * n, completionTokens: u.completionTokens * n }
}

/** One chat request of `messages` message tokens answered with `reply` tokens. */
function call(messageTokens: readonly number[], reply: number): EstimatedUsage {
  const prompt = H.requestOverheadTokens + messageTokens.reduce((n, t) => n + t + H.messageOverheadTokens, 0)
  return { calls: 1, promptTokens: prompt, completionTokens: reply }
}

/**
 * A first request plus `gleanings` continue rounds, each re-sending the conversation, with a Y/N
 * loop check between rounds. `records` is the reply size of a chunk summed over all rounds.
 */
function gleanedExtraction(
  promptTokens: number,
  records: number,
  gleanings: number,
  continueTokens: number,
  loopTokens: number,
): EstimatedUsage {
  const first = Math.round(records * H.firstReplyShare)
  const perGleaning = gleanings === 0 ? 0 : Math.round((records - first) / gleanings)
  const history = [promptTokens, first]
  let usage = call([promptTokens], first)
  for (let i = 0; i < gleanings; i++) {
    usage = add(usage, call([...history, continueTokens], perGleaning))
    history.push(continueTokens, perGleaning)
    if (i < gleanings - 1) usage = add(usage, call([...history, loopTokens], 1))
  }
  return usage
}

/** Every chunk's extraction calls, given the reply tokens of the records the rounds together find. */
function chunkExtraction(
  x: UsageInput,
  prompt: ExtractionPrompts,
  foundTokens: number,
  gleanings: number,
): EstimatedUsage {
  const chunks = Math.max(1, x.chunks)
  const allTokens = foundTokens / (gleanings > 0 ? 1 : H.firstReplyShare)
  return scale(
    gleanedExtraction(
      prompt.template + x.chunkTokens / chunks,
      allTokens / chunks,
      gleanings,
      prompt.continuation,
      prompt.loop,
    ),
    x.chunks,
  )
}

/** Token sizes of an extraction's prompts: the formatted template (no text), the continue and the loop-check prompts. */
export interface ExtractionPrompts {
  template: number
  continuation: number
  loop: number
}

/** The share of the records the extraction finds: all of them with gleaning, the first reply's share without. */
function foundShare(gleanings: number): number {
  return gleanings > 0 ? 1 : H.firstReplyShare
}

/** The LLM graph extraction's records and the distinct entities and relationships they merge into. */
export function guessExtractedGraph(figures: ChunkFigures, gleanings: number): Partial<GuessedGraph> {
  const k = figures.chunkTokens / 1000
  const entityRecords = k * H.entityRecordsPer1k * foundShare(gleanings)
  const relationshipRecords = k * H.relationshipRecordsPer1k * foundShare(gleanings)
  return {
    entityRecords,
    relationshipRecords,
    entities: entityRecords * H.distinctEntityRatio,
    relationships: relationshipRecords * H.distinctRelationshipRatio,
  }
}

/**
 * Noun-phrase graphs: entities from their own rate; relationships have no calibration of their own,
 * so the LLM extraction's rate (at extract_graph.max_gleanings) stands in, as it always has.
 */
export function guessNounGraph(figures: ChunkFigures, gleanings: number): Partial<GuessedGraph> {
  const { relationshipRecords, relationships } = guessExtractedGraph(figures, gleanings)
  return { entities: (figures.chunkTokens / 1000) * H.nounPhraseEntitiesPer1k, relationshipRecords, relationships }
}

export function guessClaims(figures: ChunkFigures, gleanings: number): Partial<GuessedGraph> {
  return { claims: (figures.chunkTokens / 1000) * H.claimRecordsPer1k * foundShare(gleanings) }
}

/** Communities follow from the entities, whichever workflow guessed them. */
export function guessCommunities(entities: number): number {
  return Math.max(1, entities * H.communitiesPerEntity)
}

/** Extraction per chunk, then one summary call per entity or relationship with several descriptions. */
export function extractGraphUsage(
  x: UsageInput,
  prompts: ExtractionPrompts & { summary: number },
  s: { maxGleanings: number; summaryMaxInputTokens: number },
): EstimatedUsage {
  const found = x.graph.entityRecords * H.entityRecordTokens + x.graph.relationshipRecords * H.relationshipRecordTokens
  const extraction = chunkExtraction(x, prompts, found, s.maxGleanings)
  const summary = (names: number, descriptions: number, replyTokens: number, count: number): EstimatedUsage =>
    scale(call([Math.min(s.summaryMaxInputTokens, prompts.summary + names + descriptions)], replyTokens), count)
  const entities = summary(
    8,
    H.descriptionsPerEntitySummary * H.entityDescriptionTokens,
    H.entitySummaryTokens,
    x.graph.entities * H.summarizedEntityShare,
  )
  const relationships = summary(
    16,
    H.descriptionsPerRelationshipSummary * H.relationshipDescriptionTokens,
    H.relationshipSummaryTokens,
    x.graph.relationships * H.summarizedRelationshipShare,
  )
  return add(extraction, add(entities, relationships))
}

export function extractClaimsUsage(x: UsageInput, prompts: ExtractionPrompts, maxGleanings: number): EstimatedUsage {
  return chunkExtraction(x, prompts, x.graph.claims * H.claimRecordTokens, maxGleanings)
}

/** Reports written: measured for an update, else one per guessed community. */
function reportCount(x: UsageInput): number {
  return x.reports?.count ?? x.graph.communities
}

/** One report call per report written, each with a `context`-token input. */
function reports(x: UsageInput, template: number, maxInputLength: number, context: number): EstimatedUsage {
  return scale(call([template + Math.min(maxInputLength, context)], H.reportReplyTokens), reportCount(x))
}

export function graphReportsUsage(x: UsageInput, template: number, maxInputLength: number): EstimatedUsage {
  const perMember = H.contextTokensPerMember + (x.graph.claims > 0 ? H.claimContextTokensPerMember : 0)
  const members = x.reports?.members ?? (x.graph.entities * H.membershipsPerEntity) / x.graph.communities
  return reports(x, template, maxInputLength, H.contextTrimFactor * Math.min(maxInputLength, members * perMember))
}

/**
 * `unitsPerReport` > 0: a fresh fast index writes at most one model report per that many chunks
 * (text-report-selection.ts); an update's measured reports stay an upper bound.
 */
export function textReportsUsage(
  x: UsageInput,
  template: number,
  maxInputLength: number,
  unitsPerReport = 0,
): EstimatedUsage {
  const perChunk = x.reports?.unitTokens ?? x.chunkTokens / Math.max(1, x.chunks)
  const all = reports(x, template, maxInputLength, H.textReportContextChunks * perChunk)
  if (unitsPerReport === 0 || x.reports !== undefined || reportCount(x) === 0) return all
  return scale(all, Math.min(1, Math.ceil(x.chunks / unitsPerReport) / reportCount(x)))
}

/** One call per batch of batch_size texts or batch_max_tokens tokens, for each configured embedding. */
export function embeddingsUsage(
  x: UsageInput,
  names: readonly string[],
  s: { batchSize: number; batchMaxTokens: number },
): EstimatedUsage {
  const sources: Record<string, [number, number]> = {
    text_unit_text: [x.chunks, x.chunkTokens],
    entity_description: [x.graph.entities, x.graph.entities * H.entityEmbeddingTokens],
    community_full_content: [reportCount(x), reportCount(x) * H.reportEmbeddingTokens],
  }
  return names.reduce((u, name) => {
    const [texts, tokens] = sources[name] ?? [0, 0]
    if (texts === 0) return u
    const calls = Math.max(Math.ceil(texts / s.batchSize), Math.ceil(tokens / s.batchMaxTokens))
    return add(u, { calls, promptTokens: tokens, completionTokens: 0 })
  }, ZERO)
}

/** The chunk_graph settings the typed-edge estimate depends on. */
export interface ChunkGraphEstimateSettings {
  readonly llm_edges: boolean
  readonly cross_document: boolean
  readonly batch_size: number
  readonly batch_overlap: number
  readonly cross_document_top_k: number
}

/** Typed-edge calls of create_chunk_graph: exact sliding windows over the chunks, guessed cross-document batches. */
export function chunkGraphUsage(x: ChunkFigures, template: number, s: ChunkGraphEstimateSettings): EstimatedUsage {
  const perChunk = x.chunkTokens / Math.max(1, x.chunks)
  const batch = (units: number): EstimatedUsage => call([template + units * perChunk], (units - 1) * H.chunkEdgeTokens)
  let usage = ZERO
  if (s.llm_edges) {
    for (const chunks of x.chunksPerDocument ?? [x.chunks])
      for (const [start, end] of slidingWindows(chunks, s.batch_size, s.batch_overlap))
        usage = add(usage, batch(end - start))
  }
  if (s.cross_document) {
    const units = 1 + Math.min(s.cross_document_top_k, H.crossDocumentNeighbours)
    usage = add(usage, scale(batch(units), x.chunks * H.crossDocumentBatchesPerChunk))
  }
  return usage
}
