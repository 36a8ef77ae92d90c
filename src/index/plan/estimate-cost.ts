/**
 * Dry-run estimate of LLM calls, tokens and cost per workflow, before any paid call. Exact inputs:
 * chunk count and chunk tokens, the token sizes of our prompt files (or the configured ones),
 * max_gleanings, claims on/off, report budgets, embed_text batching. Everything the model would
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
 */
import type { Settings } from '../../config/schema.js'
import { DEFAULT_ENTITY_TYPES } from '../../config/sections/workflows.js'
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import type { TokenUsage } from '../../llm/types.js'

export const ESTIMATE_HEURISTICS = Object.freeze({
  entityRecordsPer1k: 15.5, relationshipRecordsPer1k: 21.9, claimRecordsPer1k: 8.1,
  entityRecordTokens: 45, relationshipRecordTokens: 42, claimRecordTokens: 140,
  firstReplyShare: 2 / 3,
  distinctEntityRatio: 0.68, distinctRelationshipRatio: 0.89,
  summarizedEntityShare: 0.17, summarizedRelationshipShare: 0.07,
  descriptionsPerEntitySummary: 3.75, descriptionsPerRelationshipSummary: 2.8,
  entityDescriptionTokens: 30, relationshipDescriptionTokens: 18,
  entitySummaryTokens: 185, relationshipSummaryTokens: 155,
  communitiesPerEntity: 0.23, membershipsPerEntity: 2.18,
  contextTokensPerMember: 180, claimContextTokensPerMember: 40, contextTrimFactor: 0.85,
  reportReplyTokens: 1045,
  nounPhraseEntitiesPer1k: 22.8, textReportContextChunks: 3,
  entityEmbeddingTokens: 60, reportEmbeddingTokens: 965,
  requestOverheadTokens: 3, messageOverheadTokens: 4,
})

export type EstimateSettings = Pick<
  Settings,
  'extract_graph' | 'summarize_descriptions' | 'extract_claims' | 'community_reports' | 'embed_text'
>

export interface EstimateInput {
  /** The workflows that will run (already-finished ones left out). */
  workflows: readonly string[]
  chunks: number
  /** Tokens of all chunks together. */
  chunkTokens: number
  settings: EstimateSettings
  /** Token count with the chat model's tokenizer (prompt sizes). */
  countTokens: (text: string) => number
  /** Cost in USD of a workflow's usage, from the LLM layer's price table; undefined when unknown. */
  cost?: (workflow: string, kind: 'chat' | 'embedding', usage: TokenUsage) => number | undefined
}

export interface WorkflowEstimate {
  workflow: string
  calls: number
  promptTokens: number
  completionTokens: number
  /** null when no price is known for the model. */
  costUsd: number | null
}

export interface CostEstimate {
  workflows: WorkflowEstimate[]
  total: Omit<WorkflowEstimate, 'workflow'>
  /** The guessed graph size the figures rest on. */
  assumed: { entities: number; relationships: number; claims: number; communities: number }
}

interface Usage {
  calls: number
  promptTokens: number
  completionTokens: number
}

const H = ESTIMATE_HEURISTICS
const ZERO: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 }

function add(a: Usage, b: Usage): Usage {
  return { calls: a.calls + b.calls, promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens }
}

function scale(u: Usage, n: number): Usage {
  return { calls: u.calls * n, promptTokens: u.promptTokens * n, completionTokens: u.completionTokens * n }
}

/** One chat request of `messages` message tokens answered with `reply` tokens. */
function call(messageTokens: readonly number[], reply: number): Usage {
  const prompt = H.requestOverheadTokens + messageTokens.reduce((n, t) => n + t + H.messageOverheadTokens, 0)
  return { calls: 1, promptTokens: prompt, completionTokens: reply }
}

/**
 * A first request plus `gleanings` continue rounds, each re-sending the conversation, with a Y/N
 * loop check between rounds. `records` is the reply size of a chunk summed over all rounds.
 */
function gleanedExtraction(promptTokens: number, records: number, gleanings: number, continueTokens: number, loopTokens: number): Usage {
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

function promptTokens(input: EstimateInput, path: string | null, name: string, key: string, values: Record<string, string>): number {
  return input.countTokens(formatPrompt(loadPrompt(path, name, key), values))
}

interface Graph {
  entityRecords: number
  relationshipRecords: number
  entities: number
  relationships: number
  claims: number
  communities: number
}

function guessGraph(input: EstimateInput): Graph {
  const found = input.settings.extract_graph.max_gleanings > 0 ? 1 : H.firstReplyShare
  const k = input.chunkTokens / 1000
  const entityRecords = k * H.entityRecordsPer1k * found
  const relationshipRecords = k * H.relationshipRecordsPer1k * found
  const standard = input.workflows.includes('extract_graph')
  const entities = standard ? entityRecords * H.distinctEntityRatio : k * H.nounPhraseEntitiesPer1k
  const claimsOn = input.settings.extract_claims.enabled && input.workflows.includes('extract_covariates')
  return {
    entityRecords,
    relationshipRecords,
    entities,
    relationships: relationshipRecords * H.distinctRelationshipRatio,
    claims: claimsOn ? k * H.claimRecordsPer1k * (input.settings.extract_claims.max_gleanings > 0 ? 1 : H.firstReplyShare) : 0,
    communities: Math.max(1, entities * H.communitiesPerEntity),
  }
}

/** Every chunk's extraction calls, given the reply tokens of the records the rounds together find. */
function chunkExtraction(input: EstimateInput, template: number, internal: string, foundTokens: number, gleanings: number): Usage {
  const cont = promptTokens(input, null, `internal/${internal}_continue.txt`, `${internal}.prompt`, {})
  const loop = promptTokens(input, null, `internal/${internal}_loop.txt`, `${internal}.prompt`, {})
  const chunks = Math.max(1, input.chunks)
  const allTokens = foundTokens / (gleanings > 0 ? 1 : H.firstReplyShare)
  return scale(gleanedExtraction(template + input.chunkTokens / chunks, allTokens / chunks, gleanings, cont, loop), input.chunks)
}

function extractGraph(input: EstimateInput, g: Graph): Usage {
  const { extract_graph: eg, summarize_descriptions: sd } = input.settings
  const template = promptTokens(input, eg.prompt, 'extract_graph.txt', 'extract_graph.prompt', {
    input_text: '',
    entity_types: (eg.entity_types ?? DEFAULT_ENTITY_TYPES).join(','),
  })
  const found = g.entityRecords * H.entityRecordTokens + g.relationshipRecords * H.relationshipRecordTokens
  const extraction = chunkExtraction(input, template, 'extract_graph', found, eg.max_gleanings)
  const summaryTemplate = promptTokens(input, sd.prompt, 'summarize_descriptions.txt', 'summarize_descriptions.prompt', {
    entity_name: '',
    description_list: '',
    max_length: String(sd.max_length),
  })
  const summary = (names: number, descriptions: number, replyTokens: number, count: number): Usage =>
    scale(call([Math.min(sd.max_input_tokens, summaryTemplate + names + descriptions)], replyTokens), count)
  const entities = summary(8, H.descriptionsPerEntitySummary * H.entityDescriptionTokens, H.entitySummaryTokens, g.entities * H.summarizedEntityShare)
  const relationships = summary(16, H.descriptionsPerRelationshipSummary * H.relationshipDescriptionTokens, H.relationshipSummaryTokens, g.relationships * H.summarizedRelationshipShare)
  return add(extraction, add(entities, relationships))
}

function extractClaims(input: EstimateInput, g: Graph): Usage {
  const s = input.settings.extract_claims
  const template = promptTokens(input, s.prompt, 'extract_claims.txt', 'extract_claims.prompt', {
    input_text: '',
    claim_description: s.description,
    entity_specs: "['organization', 'person', 'geo', 'event']",
  })
  return chunkExtraction(input, template, 'extract_claims', g.claims * H.claimRecordTokens, s.max_gleanings)
}

/** One report call per community with a `context`-token input. */
function reports(input: EstimateInput, g: Graph, kind: 'graph' | 'text', context: number): Usage {
  const s = input.settings.community_reports
  const template = promptTokens(input, s[`${kind}_prompt`], `community_report_${kind}.txt`, `community_reports.${kind}_prompt`, {
    input_text: '',
    max_report_length: String(s.max_length),
  })
  return scale(call([template + Math.min(s.max_input_length, context)], H.reportReplyTokens), g.communities)
}

function graphReports(input: EstimateInput, g: Graph): Usage {
  const perMember = H.contextTokensPerMember + (g.claims > 0 ? H.claimContextTokensPerMember : 0)
  const members = (g.entities * H.membershipsPerEntity) / g.communities
  const budget = input.settings.community_reports.max_input_length
  return reports(input, g, 'graph', H.contextTrimFactor * Math.min(budget, members * perMember))
}

function textReports(input: EstimateInput, g: Graph): Usage {
  if (input.settings.community_reports.completion_model_id === null) return ZERO
  return reports(input, g, 'text', (H.textReportContextChunks * input.chunkTokens) / Math.max(1, input.chunks))
}

function embeddings(input: EstimateInput, g: Graph): Usage {
  const s = input.settings.embed_text
  const names = s.names ?? ['entity_description', 'community_full_content', 'text_unit_text']
  const sources: Record<string, [number, number]> = {
    text_unit_text: [input.chunks, input.chunkTokens],
    entity_description: [g.entities, g.entities * H.entityEmbeddingTokens],
    community_full_content: [g.communities, g.communities * H.reportEmbeddingTokens],
  }
  return names.reduce((u, name) => {
    const [texts, tokens] = sources[name] ?? [0, 0]
    if (texts === 0) return u
    const calls = Math.max(Math.ceil(texts / s.batch_size), Math.ceil(tokens / s.batch_max_tokens))
    return add(u, { calls, promptTokens: tokens, completionTokens: 0 })
  }, ZERO)
}

const ESTIMATORS: Record<string, { kind: 'chat' | 'embedding'; estimate: (input: EstimateInput, g: Graph) => Usage }> = {
  extract_graph: { kind: 'chat', estimate: extractGraph },
  extract_covariates: { kind: 'chat', estimate: (i, g) => (i.settings.extract_claims.enabled ? extractClaims(i, g) : ZERO) },
  create_community_reports: { kind: 'chat', estimate: graphReports },
  create_community_reports_text: { kind: 'chat', estimate: textReports },
  generate_text_embeddings: { kind: 'embedding', estimate: embeddings },
}

/** Estimates the LLM usage of each workflow that calls a model; workflows without calls are left out. */
export function estimateIndexCost(input: EstimateInput): CostEstimate {
  const g = guessGraph(input)
  const workflows: WorkflowEstimate[] = []
  for (const workflow of input.workflows) {
    const estimator = ESTIMATORS[workflow]
    if (estimator === undefined) continue
    const raw = estimator.estimate(input, g)
    if (raw.calls === 0) continue
    const usage = { calls: Math.round(raw.calls), promptTokens: Math.round(raw.promptTokens), completionTokens: Math.round(raw.completionTokens) }
    const cost = input.cost?.(workflow, estimator.kind, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens })
    workflows.push({ workflow, ...usage, costUsd: cost ?? null })
  }
  const sum = workflows.reduce((u, w) => add(u, w), ZERO)
  const costs = workflows.map((w) => w.costUsd)
  const total = { ...sum, costUsd: costs.some((c) => c === null) ? null : costs.reduce<number>((a, c) => a + (c ?? 0), 0) }
  const assumed = {
    entities: Math.round(g.entities),
    relationships: Math.round(g.relationships),
    claims: Math.round(g.claims),
    communities: Math.round(g.communities),
  }
  return { workflows, total, assumed }
}
