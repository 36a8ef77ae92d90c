/**
 * The rerank stage of hybrid search against a real fake reranker on 127.0.0.1 (Cohere and TEI
 * shapes), through `query --method hybrid --json --explain` run in process: the request, the
 * blend into final_score, the reordered context, retries, the offline lexical fallback, and a
 * failing reranker that degrades with a warning and never shows its key.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lexicalScore } from '../../src/query/hybrid/rerank.js'
import { runQueryInProcess } from '../support/query-command.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../support/fake-llm/index.js'
import { fakeRelevance, startFakeReranker, type FakeReranker } from '../support/fake-rerank.js'
import { testdir } from '../support/testdir.js'
import { DIMENSION, QUESTIONS, QUESTION_VECTORS, writeHybridIndex } from './support/hybrid-index.js'

const KEY = 'sk-rerank-secret-4471'
const QUESTION = QUESTIONS.bm25
const responders: Responder[] = [(req) => (req.kind === 'hybrid_entities' ? '[]' : undefined)]

interface Row {
  id: string
  rank: number
  composite: number
  final_score: number
  rerank_score: number | null
  rerank_norm: number | null
  why: string
}
interface Out {
  sources: Array<{ id: string; kind: string; final_score: number | null; rerank_score: number | null }>
  ranking: Row[]
  warnings: Array<{ type: string; detail: string }>
}

/** Each passage source carries the rerank and final scores of its ranking row. */
function expectSourceScores(out: Out): void {
  const byId = new Map(out.ranking.map((r) => [r.id, r]))
  const passages = out.sources.filter((s) => s.kind === 'text_unit')
  expect(passages.length).toBeGreaterThan(0)
  for (const source of passages) {
    expect(source.rerank_score).toBe(byId.get(source.id)!.rerank_score)
    expect(source.final_score).toBe(byId.get(source.id)!.final_score)
  }
}

let fake: FakeLlm
let reranker: FakeReranker
beforeAll(async () => {
  fake = await startFakeLlm({ embeddingDimension: DIMENSION, fixedEmbeddings: QUESTION_VECTORS, responders })
  reranker = await startFakeReranker({ key: KEY })
})
afterAll(async () => {
  await fake?.close()
  await reranker?.close()
})

async function ask(rerank: string): Promise<{ out: Out; stdout: string; stderr: string }> {
  const hybrid = ['hybrid_search:', '  vector_top_k: 3', '  top_n: 3', '  top_communities: 0'].join('\n')
  const root = await testdir({
    'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}${hybrid}\n${rerank}\n`,
    '.env': `RERANK_API_KEY=${KEY}\n`,
  })
  await writeHybridIndex(join(root, 'output'))
  const { stdout, stderr } = await runQueryInProcess(root, QUESTION, 'hybrid', { explain: true })
  return { out: JSON.parse(stdout) as Out, stdout, stderr }
}

const cohere = (extra = '') =>
  `rerank:\n  enabled: true\n  api_base: ${reranker.baseUrl}\n  model: rerank-test\n  api_key: \${RERANK_API_KEY}\n  top_n: 3\n  weight: 0.5\n${extra}`

describe('hybrid search rerank stage', () => {
  let composite: Row[]
  let plain: Out
  beforeAll(async () => {
    plain = (await ask('')).out
    composite = plain.ranking
  })

  it('is off by default: final_score is the composite, no rerank score', () => {
    expect(composite.length).toBeGreaterThan(3)
    for (const row of composite) {
      expect(row.final_score).toBe(row.composite)
      expect(row.rerank_score).toBeNull()
    }
    expectSourceScores(plain)
  })

  it('sends the top_n candidates in composite order (Cohere shape, bearer key from .env) and blends the scores', async () => {
    const before = reranker.requests.length
    const { out } = await ask(cohere())
    const [request] = reranker.requests.slice(before)
    expect(request).toMatchObject({ path: '/rerank', status: 200 })
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    const documents = request!.body.documents as string[]
    expect(request!.body).toMatchObject({ model: 'rerank-test', query: QUESTION, top_n: 3 })
    expect(documents).toHaveLength(3)
    const scores = new Map(composite.slice(0, 3).map((row, i) => [row.id, fakeRelevance(QUESTION, documents[i]!)]))
    const best = Math.max(...scores.values())
    const byId = new Map(composite.map((r) => [r.id, r]))
    for (const row of out.ranking) {
      const base = 0.5 * byId.get(row.id)!.composite
      const score = scores.get(row.id)
      if (score === undefined) {
        expect(row.rerank_score).toBeNull()
        expect(row.final_score).toBeCloseTo(base, 12)
      } else {
        expect(row.rerank_score).toBeCloseTo(score, 12)
        expect(row.rerank_norm).toBeCloseTo(score / best, 12)
        expect(row.final_score).toBeCloseTo(base + 0.5 * (score / best), 12)
        expect(row.why).toContain(`rerank ${score.toFixed(3)}`)
      }
    }
    const finals = out.ranking.map((r) => r.final_score)
    expect(finals).toEqual([...finals].sort((a, b) => b - a))
    // The reranker put the passage with the part code (u3) alone at the top, and the context follows.
    expect(out.ranking[0]!.id).toBe('u3')
    expect(composite[0]!.id).not.toBe('u3')
    expect(out.ranking[0]!.final_score).toBeGreaterThan(out.ranking[1]!.final_score)
    expect(out.sources.find((s) => s.kind === 'text_unit')!.id).toBe('u3')
    // The sources carry the rerank score (without --explain too: they are always in the JSON).
    expectSourceScores(out)
    expect(out.sources.find((s) => s.id === 'u3')!.rerank_score).toBeCloseTo(scores.get('u3')!, 12)
  })

  it('speaks the TEI shape and retries a 503', async () => {
    reranker.failNext(1, 503)
    const before = reranker.requests.length
    const { out } = await ask(cohere('  protocol: tei\n'))
    const requests = reranker.requests.slice(before)
    expect(requests.map((r) => r.status)).toEqual([503, 200])
    expect(requests[1]!.body.texts).toHaveLength(3)
    expect(out.ranking[0]).toMatchObject({ id: 'u3' })
    expect(out.warnings.filter((w) => w.type === 'rerank_failed')).toEqual([])
  })

  it('a rejected key degrades to the composite order with rerank_failed, never showing the key', async () => {
    const { out, stdout, stderr } = await ask(cohere().replace('${RERANK_API_KEY}', 'sk-wrong-key-0000'))
    expect(out.ranking.map((r) => r.id)).toEqual(composite.map((r) => r.id))
    expect(out.warnings).toContainEqual({ type: 'rerank_failed', detail: expect.stringContaining('HTTP 401') })
    expect(`${stdout}${stderr}`).not.toContain('sk-wrong-key-0000')
    expect(`${stdout}${stderr}`).not.toContain(KEY)
  })

  it('without an endpoint, reranks offline by the share of the question words each passage holds', async () => {
    const before = reranker.requests.length
    const { out } = await ask('rerank:\n  enabled: true\n  top_n: 3\n  weight: 0.5\n')
    expect(reranker.requests.length).toBe(before)
    const reranked = out.ranking.filter((r) => r.rerank_score !== null)
    expect(reranked.map((r) => r.id).sort()).toEqual(
      composite
        .slice(0, 3)
        .map((r) => r.id)
        .sort(),
    )
    expect(out.ranking[0]!.id).toBe('u3')
    expect(out.ranking[0]!.rerank_score).toBeCloseTo(
      lexicalScore(QUESTION, 'Maintenance log: the drive gear with part code XK-4471 wore out in December.'),
      12,
    )
  })
})
