/**
 * The typed-edge (relation) calls after the Evolution RAG design (issue 45): its relation names
 * accepted, batches cut per document, the step_next parse fallback, the per-call temperature and
 * the per-unit token cap, through a real fake model server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmWindows } from '../../../src/index/operations/chunk-graph/batches.js'
import { llmEdges, type LlmEdgeOptions } from '../../../src/index/operations/chunk-graph/llm-edges.js'
import { truncateToTokens } from '../../../src/index/operations/chunk-graph/truncate.js'
import type { ChunkUnit } from '../../../src/index/operations/chunk-graph/types.js'
import { validateEdges } from '../../../src/index/operations/chunk-graph/validate-edges.js'
import { createChatModel } from '../../../src/llm/index.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import { readPrompt } from '../../../src/prompts/prompt-files.js'
import { startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { chunkGraphUnits } from '../../support/fake-llm/responders.js'
import { fakeOptions } from '../../llm/helpers.js'

const LONG = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
const unit = (id: string, hr: number, doc: string, text = `text of ${id}`): ChunkUnit => ({
  id,
  human_readable_id: hr,
  document_id: doc,
  text,
  entity_ids: [],
})
// Table order interleaves the documents.
const a1 = unit('a1', 0, 'A')
const a2 = unit('a2', 1, 'A')
const b1 = unit('b1', 2, 'B')
const a3 = unit('a3', 3, 'A', LONG)
const b2 = unit('b2', 4, 'B')

/** Batches led by unit 0 get prose (never JSON); the others one `supports` edge per pair. */
const SCRIPT: Responder = ({ kind, messages }) => {
  if (kind !== 'chunk_graph') return undefined
  const labels = chunkGraphUnits(messages)
  if (labels[0] === '0') return 'These passages are lovely; I see no links.'
  const edges = labels.slice(1).map((l, i) => ({ source: l, target: labels[i], relation: 'supports', weight: 0.7 }))
  return JSON.stringify({ edges })
}

let fake: FakeLlm
beforeAll(async () => {
  fake = await startFakeLlm({ responders: [SCRIPT] })
})
afterAll(() => fake.close())

const noRetry = { type: 'immediate' as const, maxRetries: 1, baseDelay: 0, jitter: false, maxDelay: undefined }
const chat = () => createChatModel(fakeOptions(fake, { retry: noRetry }))
const base: LlmEdgeOptions = {
  prompt: readPrompt({ keyPath: 'p', path: null, builtin: 'chunk_graph_edges.txt' }),
  origin: 'llm',
  concurrency: 2,
}

async function run(batches: ChunkUnit[][], extra: Partial<LlmEdgeOptions>) {
  const before = fake.requests.length
  const result = await llmEdges(batches, { ...base, ...extra }, { chat: chat() })
  return { result, requests: fake.requests.slice(before).filter((r) => r.kind === 'chunk_graph') }
}

describe('design relation names', () => {
  it.each(['follows', 'supports', 'step_next', 'Step Next'])('accepts %s from a model', (relation) => {
    const { edges, dropped } = validateEdges([{ source: 1, target: 0, relation, weight: 0.5 }], [a1, a2], 'llm')
    expect(dropped).toEqual([])
    expect(edges.map((e) => e.relation)).toEqual([relation.toLowerCase().replace(' ', '_')])
  })
})

describe('relation batches', () => {
  it('never cross a document boundary, even when the table interleaves documents', () => {
    const windows = llmWindows([a1, a2, b1, a3, b2], { batchSize: 2, batchOverlap: 1 })
    expect(windows.map((w) => w.map((u) => u.id))).toEqual([
      ['a1', 'a2'],
      ['a2', 'a3'],
      ['b1', 'b2'],
    ])
  })
})

describe('parse fallback', () => {
  it('links the units of an unparsable batch by step_next at the fallback confidence, and reports it', async () => {
    const { result } = await run(
      [
        [a1, a2, a3],
        [b1, b2],
      ],
      { fallbackConfidence: 0.3 },
    )
    expect(result.failures).toEqual([])
    expect(result.fallbacks).toEqual([{ batch: 'units 0,1,3', reason: expect.stringContaining('not valid JSON') }])
    expect(result.edges).toEqual([
      {
        source: 'a1',
        target: 'a2',
        relation: 'step_next',
        weight: 0.3,
        description: 'relation_parse_fallback: the reply could not be parsed',
        origin: 'llm',
      },
      expect.objectContaining({ source: 'a2', target: 'a3', relation: 'step_next', weight: 0.3 }),
      expect.objectContaining({ source: 'b2', target: 'b1', relation: 'supports', weight: 0.7 }),
    ])
  })

  it('is off at confidence 0: the batch is a failure, no edge is made up', async () => {
    const { result } = await run([[a1, a2]], { fallbackConfidence: 0 })
    expect(result.fallbacks).toEqual([])
    expect(result.edges).toEqual([])
    expect(result.failures).toHaveLength(1)
  })

  it('does not replace a failure that is not a parse failure (an HTTP error)', async () => {
    fake.setFaults({ rate: 1, kinds: ['500'] })
    const { result } = await run([[b1, b2]], { fallbackConfidence: 0.3 }).finally(() => fake.setFaults(undefined))
    expect(result.fallbacks).toEqual([])
    expect(result.failures).toEqual([{ batch: 'units 2,4', reason: expect.stringContaining('HTTP 500') }])
  })
})

describe('relation call settings', () => {
  it('send the relation temperature with each call, and nothing when unset', async () => {
    const withTemperature = await run([[b1, b2]], { temperature: 0 })
    expect(withTemperature.requests.map((r) => (r.body as { temperature?: number }).temperature)).toEqual([0])
    const without = await run([[b1, b2]], {})
    expect('temperature' in (without.requests[0]!.body as object)).toBe(false)
  })

  it('cut each unit to relation_unit_max_tokens, leaving short units whole', async () => {
    const { requests } = await run([[a2, a3]], { unitMaxTokens: 50 })
    const content = (requests[0]!.body as { messages: Array<{ content: string }> }).messages[0]!.content
    const shown = content.slice(content.indexOf('----- unit 3 -----') + 19).split('\n')[0]!
    expect(shown.endsWith(' …')).toBe(true)
    expect(LONG.startsWith(shown.slice(0, -2))).toBe(true)
    const count = getTokenizer('o200k_base').count(shown.slice(0, -2))
    expect(count).toBeLessThanOrEqual(50)
    expect(count).toBeGreaterThan(40)
    expect(content).toContain('----- unit 1 -----\ntext of a2\n')
  })
})

describe('truncateToTokens', () => {
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length
  it('keeps the most whole words that fit, and a text within the budget as it is', () => {
    expect(truncateToTokens('one two three four five', 3, words)).toBe('one two three …')
    expect(truncateToTokens('one two three', 3, words)).toBe('one two three')
    expect(truncateToTokens('one two three', 0, words)).toBe('one two three')
  })
  it('cuts a first word longer than the budget by characters', () => {
    const chars = (t: string) => t.length
    const cut = truncateToTokens('abcdefghij klm', 4, chars)
    expect(cut).toMatch(/^abcd? …$/)
  })
})
