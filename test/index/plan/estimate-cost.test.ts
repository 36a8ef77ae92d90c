import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import type { Settings } from '../../../src/config/schema.js'
import { estimateIndexCost, type EstimateInput } from '../../../src/index/plan/estimate-cost.js'
import { ESTIMATE_HEURISTICS as H } from '../../../src/index/operations/estimate-usage.js'
import type { WorkflowName } from '../../../src/index/workflows/index.js'
import { formatPrompt, loadPrompt } from '../../../src/prompts/prompt-template.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import { testdir } from '../../support/testdir.js'

const STANDARD: WorkflowName[] = [
  'load_input_documents',
  'create_base_text_units',
  'create_final_documents',
  'extract_graph',
  'finalize_graph',
  'extract_covariates',
  'create_communities',
  'create_final_text_units',
  'create_community_reports',
  'generate_text_embeddings',
]
const count = (text: string): number => getTokenizer('o200k_base').count(text)

async function settingsWith(yaml: string): Promise<Settings> {
  const root = await testdir({ 'settings.yaml': yaml })
  return loadConfig({ root, env: {} }).settings
}

// The Christmas Carol reference: 42 chunks, 50,288 tokens.
function input(settings: Settings, overrides: Partial<EstimateInput> = {}): EstimateInput {
  return { workflows: STANDARD, chunks: 42, chunkTokens: 50_288, settings, countTokens: count, ...overrides }
}

describe('dry-run cost estimate', () => {
  it('guesses the graph size of the reference run from its chunk tokens', async () => {
    const settings = await settingsWith('extract_claims:\n  enabled: true\n')
    const { assumed } = estimateIndexCost(input(settings))
    // Reference: 529 entities, 978 relationships, 406 claims, 122 communities.
    expect(assumed.entities).toBeGreaterThan(529 * 0.95)
    expect(assumed.entities).toBeLessThan(529 * 1.05)
    expect(Math.abs(assumed.relationships - 978) / 978).toBeLessThan(0.05)
    expect(Math.abs(assumed.claims - 406) / 406).toBeLessThan(0.05)
    expect(Math.abs(assumed.communities - 122) / 122).toBeLessThan(0.05)
  })

  it('counts calls per workflow from chunks, gleanings, summaries, communities and batches', async () => {
    const settings = await settingsWith('extract_claims:\n  enabled: true\n')
    const est = estimateIndexCost(input(settings))
    const by = Object.fromEntries(est.workflows.map((w) => [w.workflow, w]))
    expect(est.workflows.map((w) => w.workflow)).toEqual([
      'extract_graph',
      'extract_covariates',
      'create_community_reports',
      'generate_text_embeddings',
    ])
    const entities = 50.288 * H.entityRecordsPer1k * H.distinctEntityRatio
    const relationships = 50.288 * H.relationshipRecordsPer1k * H.distinctRelationshipRatio
    // max_gleanings 1: one extraction and one gleaning per chunk, no loop check; then the summaries.
    const summaries = entities * H.summarizedEntityShare + relationships * H.summarizedRelationshipShare
    expect(by.extract_graph!.calls).toBe(Math.round(42 * 2 + summaries))
    expect(by.extract_covariates!.calls).toBe(84)
    expect(by.create_community_reports!.calls).toBe(Math.round(entities * H.communitiesPerEntity))
    // 42 units in 7 token-limited batches, ~530 descriptions / 16, 122 reports in 15 token-limited batches.
    expect(by.generate_text_embeddings!.calls).toBe(7 + Math.ceil(entities / 16) + 15)
    expect(by.generate_text_embeddings!.completionTokens).toBe(0)

    // First extraction prompt: template + chunk + chat overhead; the gleaning re-sends it with the reply.
    const template = count(
      loadPrompt(null, 'extract_graph.txt', 'x')
        .replace('{input_text}', '')
        .replaceAll('{entity_types}', 'organization,person,geo,event'),
    )
    const first = H.requestOverheadTokens + template + 50_288 / 42 + H.messageOverheadTokens
    expect(by.extract_graph!.promptTokens).toBeGreaterThan(42 * 2 * first)
    expect(by.create_community_reports!.completionTokens).toBe(
      Math.round(entities * H.communitiesPerEntity * H.reportReplyTokens),
    )
  })

  it('follows max_gleanings, claims off and the fast pipeline', async () => {
    const noGleaning = estimateIndexCost(input(await settingsWith('extract_graph:\n  max_gleanings: 0\n')))
    const three = estimateIndexCost(input(await settingsWith('extract_graph:\n  max_gleanings: 3\n')))
    const extract = (e: ReturnType<typeof estimateIndexCost>) =>
      e.workflows.find((w) => w.workflow === 'extract_graph')!
    // Without gleaning only the first reply's share of the records is found, so fewer summaries too.
    expect(noGleaning.assumed.entities).toBe(
      Math.round(50.288 * H.entityRecordsPer1k * H.firstReplyShare * H.distinctEntityRatio),
    )
    // Three gleanings: 1 + 3 continue calls + 2 loop checks per chunk.
    expect(extract(three).calls - extract(noGleaning).calls).toBeGreaterThan(42 * 5)
    expect(extract(three).promptTokens).toBeGreaterThan(extract(noGleaning).promptTokens * 4)
    expect(noGleaning.workflows.some((w) => w.workflow === 'extract_covariates')).toBe(false)

    const fastWorkflows: WorkflowName[] = [
      'create_base_text_units',
      'extract_graph_nlp',
      'prune_graph',
      'create_communities',
      'create_community_reports_text',
      'generate_text_embeddings',
    ]
    const chatModel =
      'completion_models:\n  default_completion_model:\n    model_provider: openai\n    model: gpt-4.1\n    api_key: sk-test\n'
    const fast = estimateIndexCost(input(await settingsWith(chatModel), { workflows: fastWorkflows }))
    expect(fast.workflows.map((w) => w.workflow)).toEqual(['create_community_reports_text', 'generate_text_embeddings'])
    expect(fast.assumed.claims).toBe(0)
    // One model report per 8 of the 42 chunks by default (text_units_per_report), each over at most 2,000 tokens.
    expect(fast.workflows[0]!.calls).toBeCloseTo(Math.ceil(42 / 8))
    const microsoft = `${chatModel}community_reports:\n  text_units_per_report: 0\n  text_context_tokens: 0\n`
    const everyCommunity = estimateIndexCost(input(await settingsWith(microsoft), { workflows: fastWorkflows }))
    expect(everyCommunity.workflows[0]!.calls).toBeCloseTo(fast.assumed.communities)
    // Per report: the template and 2,000 context tokens instead of three whole chunks (≈ 3,600).
    const perCall = (e: typeof fast) => e.workflows[0]!.promptTokens / e.workflows[0]!.calls
    expect(perCall(everyCommunity) - perCall(fast)).toBeGreaterThan(1_000)
    // Without a configured chat model the fast reports are extractive: no calls to estimate.
    const offline = estimateIndexCost(input(await settingsWith(''), { workflows: fastWorkflows }))
    expect(offline.workflows.map((w) => w.workflow)).toEqual(['generate_text_embeddings'])
  })

  it('guesses the graph from the whole plan when the workflows that build it finished before (a resumed run)', async () => {
    const settings = await settingsWith('extract_claims:\n  enabled: true\n')
    const full = estimateIndexCost(input(settings))
    const resumed = estimateIndexCost(
      input(settings, { workflows: ['create_community_reports', 'generate_text_embeddings'], planned: STANDARD }),
    )
    expect(resumed.assumed).toEqual(full.assumed)
    expect(resumed.workflows).toEqual(
      full.workflows.filter(
        (w) => w.workflow === 'create_community_reports' || w.workflow === 'generate_text_embeddings',
      ),
    )
  })

  it("an update's reports measured on the previous index replace the guessed communities for the reports and their vectors", async () => {
    const settings = await settingsWith('')
    const reports = { count: 7, members: 3, unitTokens: 500 }
    // A delete-only update: nothing to extract, yet 7 communities lose an entity's text unit.
    const deleteOnly = estimateIndexCost(input(settings, { chunks: 0, chunkTokens: 0, reports }))
    const by = Object.fromEntries(deleteOnly.workflows.map((w) => [w.workflow, w]))
    expect(Object.keys(by)).toEqual(['create_community_reports', 'generate_text_embeddings'])
    expect(by.create_community_reports!.calls).toBe(7)
    expect(by.create_community_reports!.completionTokens).toBe(7 * H.reportReplyTokens)
    const template = count(
      formatPrompt(loadPrompt(null, 'community_report_graph.txt', 'x'), { input_text: '', max_report_length: '2000' }),
    )
    const context = H.contextTrimFactor * 3 * H.contextTokensPerMember
    const perCall = H.requestOverheadTokens + template + context + H.messageOverheadTokens
    expect(Math.abs(by.create_community_reports!.promptTokens - 7 * perCall)).toBeLessThanOrEqual(1)
    expect(by.generate_text_embeddings).toMatchObject({ calls: 1, promptTokens: 7 * H.reportEmbeddingTokens })

    // With chunks to extract, extraction and the other embeddings stay those of the chunks.
    const full = estimateIndexCost(input(settings))
    const update = estimateIndexCost(input(settings, { reports }))
    const pick = (e: ReturnType<typeof estimateIndexCost>, name: string) => e.workflows.find((w) => w.workflow === name)
    expect(pick(update, 'extract_graph')).toEqual(pick(full, 'extract_graph'))
    expect(pick(update, 'create_community_reports')!.calls).toBe(7)
    const communities = 50.288 * H.entityRecordsPer1k * H.distinctEntityRatio * H.communitiesPerEntity
    const embedded = (e: ReturnType<typeof estimateIndexCost>) => pick(e, 'generate_text_embeddings')!.promptTokens
    expect(embedded(full) - embedded(update)).toBeCloseTo((communities - 7) * H.reportEmbeddingTokens, -1)

    // Fast: text-unit reports sized by the previous index's text units.
    const chatModel =
      'completion_models:\n  default_completion_model:\n    model_provider: openai\n    model: gpt-4.1\n    api_key: sk-test\n'
    const fast = estimateIndexCost(
      input(await settingsWith(chatModel), {
        workflows: ['create_community_reports_text'],
        chunks: 0,
        chunkTokens: 0,
        reports,
      }),
    )
    expect(fast.workflows[0]).toMatchObject({ workflow: 'create_community_reports_text', calls: 7 })
    expect(fast.workflows[0]!.promptTokens).toBeGreaterThan(7 * H.textReportContextChunks * 500)
  })

  it('prices usage through the callback and leaves the total unknown when a price is missing', async () => {
    const settings = await settingsWith('')
    const priced = estimateIndexCost(
      input(settings, {
        cost: (_w, kind, u) =>
          kind === 'chat' ? (u.promptTokens * 2 + u.completionTokens * 8) / 1e6 : (u.promptTokens * 0.13) / 1e6,
      }),
    )
    const reports = priced.workflows.find((w) => w.workflow === 'create_community_reports')!
    expect(reports.costUsd).toBeCloseTo((reports.promptTokens * 2 + reports.completionTokens * 8) / 1e6, 10)
    expect(priced.total.costUsd).toBeCloseTo(
      priced.workflows.reduce((a, w) => a + w.costUsd!, 0),
      10,
    )
    expect(priced.total.calls).toBe(priced.workflows.reduce((a, w) => a + w.calls, 0))
    const partial = estimateIndexCost(input(settings, { cost: (_w, kind) => (kind === 'chat' ? 1 : undefined) }))
    expect(partial.total.costUsd).toBeNull()
  })
})

describe('dry-run cost estimate of the chunk graph (ours)', () => {
  const withChunkGraph: WorkflowName[] = [...STANDARD, 'create_chunk_graph']

  it('has no entry while typed edges are off (sequence and shared-entity edges call no model)', async () => {
    const est = estimateIndexCost(input(await settingsWith(''), { workflows: withChunkGraph }))
    expect(est.workflows.map((w) => w.workflow)).not.toContain('create_chunk_graph')
  })

  it('counts the sliding batches exactly and sizes each from its units', async () => {
    const settings = await settingsWith('chunk_graph:\n  llm_edges: true\n  batch_size: 5\n  batch_overlap: 1\n')
    const row = estimateIndexCost(input(settings, { workflows: withChunkGraph })).workflows.find(
      (w) => w.workflow === 'create_chunk_graph',
    )!
    // 42 units, windows of 5 advancing by 4: [0,5], [4,9], ..., [36,41], [40,42] → 11 batches (the last of 2 units).
    expect(row.calls).toBe(11)
    const template = count(formatPrompt(loadPrompt(null, 'chunk_graph_edges.txt', 'x'), { input_text: '' }))
    const perChunk = 50_288 / 42
    const prompt = (units: number) => H.requestOverheadTokens + H.messageOverheadTokens + template + units * perChunk
    expect(row.promptTokens).toBe(Math.round(10 * prompt(5) + prompt(2)))
    expect(row.completionTokens).toBe((10 * 4 + 1) * H.chunkEdgeTokens)
  })

  it('adds the guessed cross-document batches', async () => {
    const settings = await settingsWith('chunk_graph:\n  cross_document: true\n')
    const row = estimateIndexCost(input(settings, { workflows: withChunkGraph })).workflows.find(
      (w) => w.workflow === 'create_chunk_graph',
    )!
    expect(row.calls).toBe(42 * H.crossDocumentBatchesPerChunk)
    expect(row.completionTokens).toBe(
      Math.round(42 * H.crossDocumentBatchesPerChunk * H.crossDocumentNeighbours * H.chunkEdgeTokens),
    )
  })
})
