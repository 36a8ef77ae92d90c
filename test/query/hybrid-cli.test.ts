import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QueryCommandFlags } from '../../src/query/command.js'
import { runCli } from '../support/cli.js'
import { runQueryInProcess } from '../support/query-command.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../support/fake-llm/index.js'
import { expectQueryResponse } from '../support/query-response-schema.js'
import { testdir } from '../support/testdir.js'
import { DIMENSION, QUESTIONS, QUESTION_VECTORS, writeHybridIndex } from './support/hybrid-index.js'

const SCRIPTED_ANSWER = 'The keeper wrote two letters [S2]. The council met in 1998. The gear was replaced [S9].'

/** The entity step names the Harbour Council for the graph question, nothing else; the answer is scripted. */
const responders: Responder[] = [
  (req) =>
    req.kind === 'hybrid_entities'
      ? JSON.stringify(req.messages.at(-1)!.content === QUESTIONS.graph ? ['the Harbour Council'] : [])
      : undefined,
  (req) => (req.kind === 'hybrid_search' ? SCRIPTED_ANSWER : undefined),
]

const HYBRID = ['hybrid_search:', '  vector_top_k: 2', '  top_n: 4', '  top_communities: 0'].join('\n')

interface JsonSource {
  label: string
  id: string
  kind: string
  reason: string
  title: string | null
  score_raw: number | null
  base_norm: number | null
  bonus: number | null
  composite_score: number | null
  rel_type: string | null
  rel_conf: number | null
  final_score: number | null
  rerank_score: number | null
}
interface HybridJson {
  method: string
  response: string
  sources: JsonSource[]
  references: Array<{ label: string; id: string }>
  entities: Array<{ name: string; freq: number }>
  warnings: Array<{ type: string; detail: string }>
  usage: Record<string, unknown>
  ranking?: Array<{ id: string; why: string; vector: unknown; bm25: unknown; graph: unknown }>
}

/** `query --method hybrid` run in process (with `--json` unless `extra` says otherwise). */
const hybridQuery = (root: string, question: string, extra: Partial<QueryCommandFlags>) =>
  runQueryInProcess(root, question, 'hybrid', extra)

/** `query --method hybrid --json` run in process: the parsed answer and what went to stderr. */
async function hybridJson(
  root: string,
  question: string,
  extra: Partial<QueryCommandFlags>,
): Promise<{ out: HybridJson; stderr: string }> {
  const { stdout, stderr } = await hybridQuery(root, question, extra)
  return { out: JSON.parse(stdout) as HybridJson, stderr }
}

describe('graphrag query --method hybrid (CLI, fake OpenAI server)', () => {
  let fake: FakeLlm
  let root: string
  const settings = (extra = '') => `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}${HYBRID}\n${extra}\n`
  const query = (question: string, ...flags: string[]) =>
    runCli(['query', question, '--root', root, '--method', 'hybrid', ...flags])
  /** In process (the spawned CLI costs seconds on a loaded machine); the CLI itself is spawned by `query`. */
  const json = async (question: string, extra: Partial<QueryCommandFlags> = {}): Promise<HybridJson> => {
    const { out, stderr } = await hybridJson(root, question, extra)
    expect(stderr).toBe('')
    return out
  }

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DIMENSION, fixedEmbeddings: QUESTION_VECTORS, responders })
    root = await testdir()
    writeFileSync(join(root, 'settings.yaml'), settings())
    await writeHybridIndex(join(root, 'output'))
  })
  afterAll(async () => fake?.close())

  it('an exact code the vectors miss reaches the context through BM25, and --explain says so', async () => {
    const out = await json(QUESTIONS.bm25)
    const u3 = out.sources.find((s) => s.id === 'u3')
    expect(u3).toMatchObject({ kind: 'text_unit', reason: 'bm25' })
    const explained = await query(QUESTIONS.bm25, '--explain')
    expect(explained.code).toBe(0)
    const row = explained.stdout.split('\n').find((l) => /^\| \d+ \| 2 \|/.test(l))!
    expect(row).toContain('| — | #1 (')
    expect(row).toMatch(/\| bm25 #1$|\| bm25 #1 \|$/)
  })

  it('a passage one hop from the question entity reaches the context only through the graph path', async () => {
    fake.requests.length = 0
    const out = await json(QUESTIONS.graph, { explain: true })
    expect(out.entities).toEqual([{ name: 'HARBOUR COUNCIL', freq: 1 }])
    const u5 = out.sources.find((s) => s.id === 'u5')!
    expect(u5).toMatchObject({ kind: 'text_unit', reason: 'graph', score_raw: 0.5 })
    const ranked = out.ranking!.find((r) => r.id === 'u5')!
    expect([ranked.vector, ranked.bm25]).toEqual([null, null])
    expect(ranked.why).toBe('graph #2 (1 hop from ELIAS VENN)')
    // --explain asks the model for the question's entities, never for an answer.
    expect(fake.requests.filter((r) => r.kind === 'hybrid_search')).toHaveLength(0)
    expect(fake.requests.filter((r) => r.kind === 'hybrid_entities')).toHaveLength(1)
  })

  it('checks the citations of a scripted answer: references, unused sources, unknown label, uncited year', async () => {
    const out = await json(QUESTIONS.graph)
    expect(out.response).toBe(SCRIPTED_ANSWER)
    const s2 = out.sources.find((s) => s.label === 'S2')!
    // The seed design's fields beside ours: the cited source's rank, raw score and composite score.
    expect(out.references).toEqual([
      { label: 'S2', id: s2.id, rank: 2, score: s2.score_raw, composite_score: s2.composite_score },
    ])
    expect(out.warnings).toEqual([
      {
        type: 'unknown_citation',
        detail: `[S9] is cited but no source has that label (given: S1–S${out.sources.length})`,
      },
      ...out.sources
        .filter((s) => s.label !== 'S2')
        .map((s) => ({ type: 'unused_sources', detail: `${s.label} (${s.id}) was given but never cited` })),
      { type: 'unreferenced_numeric', detail: 'The council met in 1998.' },
    ])
    const text = await query(QUESTIONS.graph)
    expect(text.stderr).toBe('')
    // Text output: sources by their document title, one line per kind of warning, no 128-hex ids.
    const unused = out.sources.filter((s) => s.label !== 'S2').map((s) => `[${s.label}] harbour-notes.txt`)
    expect(text.stdout).toBe(
      [
        SCRIPTED_ANSWER,
        '',
        'References:',
        `  [S2] harbour-notes.txt (${s2.reason})`,
        '',
        'Warnings (full details: --json):',
        `  cited labels that were never given (1): [S9] is cited but no source has that label (given: S1–S${out.sources.length})`,
        `  given but not cited (${unused.length}): ${unused.join(', ')}`,
        '  sentences with a number or year and no citation (1): "The council met in 1998."',
        '',
      ].join('\n'),
    )
    expect(text.stdout).not.toContain(s2.id)
  })

  it('--json follows the response schema', async () => {
    const out = await json(QUESTIONS.graph)
    expectQueryResponse(out)
    expect(Object.keys(out)).toEqual([
      'method',
      'response',
      'answer',
      'context',
      'usage',
      'warnings',
      'sources',
      'references',
      'entities',
    ])
    expect(out.sources.length).toBeGreaterThan(0)
    for (const s of out.sources) {
      expect(Object.keys(s)).toEqual([
        'label',
        'id',
        'kind',
        'reason',
        'title',
        'score_raw',
        'base_norm',
        'bonus',
        'composite_score',
        'rel_type',
        'rel_conf',
        'final_score',
        'rerank_score',
        'rank',
        'score',
        'seed_reason',
      ])
      expect(['vector', 'bm25', 'graph', 'edge', 'external']).toContain(s.reason)
      expect(s.label).toMatch(/^S\d+$/)
      for (const key of ['score_raw', 'base_norm', 'bonus', 'composite_score'] as const)
        expect(typeof s[key]).toBe('number')
      expect(s.composite_score).toBeCloseTo(s.base_norm! + s.bonus!, 12)
      // No rerank stage: the final score is the composite.
      expect([s.final_score, s.rerank_score]).toEqual([s.composite_score, null])
    }
    expect(out.sources.map((s) => s.label)).toEqual(out.sources.map((_, i) => `S${i + 1}`))
    for (const w of out.warnings) expect(Object.keys(w)).toEqual(['type', 'detail'])
    expect(out.usage).toMatchObject({ calls: 2, embeddingCalls: 1 })
  })

  it('--context adds external passages that can be cited (reason external)', async () => {
    const file = join(root, 'extra.json')
    writeFileSync(
      file,
      JSON.stringify(['The gear was replaced in March.', { id: 'memo-7', text: 'A memo about the lamp.' }]),
    )
    const out = await json(QUESTIONS.graph, { context: file })
    expect(out.sources.filter((s) => s.kind === 'external').map((s) => [s.id, s.reason, s.score_raw])).toEqual([
      ['external-1', 'external', null],
      ['memo-7', 'external', null],
    ])
  })
})

describe('hybrid search degrades instead of failing', () => {
  let fake: FakeLlm
  const run = async (root: string, question: string, extra: Partial<QueryCommandFlags> = {}): Promise<HybridJson> =>
    (await hybridJson(root, question, { explain: true, ...extra })).out
  const project = async (models: string, extra = '') => {
    const root = await testdir({ 'settings.yaml': `${models}${HYBRID}\n${extra}\n` })
    await writeHybridIndex(join(root, 'output'))
    return root
  }

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DIMENSION, fixedEmbeddings: QUESTION_VECTORS, responders })
  })
  afterAll(async () => fake?.close())

  it('no embedding (server unreachable): BM25 and the graph still rank, with embedding_failed; entities fall back to noun phrases', async () => {
    // Port 9 (discard) refuses connections: both models fail at once, with no retries.
    const root = await project(fakeModelSettingsYaml('http://127.0.0.1:9/v1', { maxRetries: 0 }))
    const out = await run(root, QUESTIONS.graph)
    expect(out.warnings.map((w) => w.type)).toEqual(['embedding_failed', 'entity_extraction_failed'])
    expect(out.entities).toEqual([{ name: 'HARBOUR COUNCIL', freq: 1 }])
    const reasons = new Set(out.sources.map((s) => s.reason))
    expect(reasons.has('vector')).toBe(false)
    expect(out.sources.find((s) => s.id === 'u5')?.reason).toBe('graph')
    expect(out.sources.find((s) => s.id === 'u6')).toBeDefined()
  })

  it('no entity matched: vector and BM25 only, with no_entities_matched', async () => {
    const root = await project(fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }))
    const out = await run(root, QUESTIONS.none)
    expect(out.warnings.map((w) => w.type)).toEqual(['no_entities_matched'])
    expect(out.ranking!.every((r) => r.graph === null)).toBe(true)
    expect(out.sources.slice(0, 2).map((s) => [s.id, s.reason])).toEqual([
      ['u1', 'vector'],
      ['u2', 'vector'],
    ])
  })

  it('a missing full-text table with build_fts off: BM25 is skipped with bm25_unavailable; on first use it is built', async () => {
    const off = await project(fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }), '  build_fts: false')
    const skipped = await run(off, QUESTIONS.bm25)
    expect(skipped.warnings).toContainEqual({
      type: 'bm25_unavailable',
      detail:
        'the full-text table text_unit_text_fts is missing and hybrid_search.build_fts is false, so BM25 is left out',
    })
    expect(skipped.sources.find((s) => s.id === 'u3')).toBeUndefined()
    const on = await project(fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }))
    const built = await run(on, QUESTIONS.bm25)
    expect(built.warnings.map((w) => w.type)).not.toContain('bm25_unavailable')
    expect(built.sources.find((s) => s.id === 'u3')?.reason).toBe('bm25')
  })

  it('chunk_edges: a typed edge from a top passage adds its bonus (rel_type, rel_conf) and can bring a passage in', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}${HYBRID}\n  edge_seed_k: 1\n`,
    })
    await writeHybridIndex(join(root, 'output'), [
      {
        id: 'c1',
        source_id: 'u1',
        target_id: 'u4',
        relation: 'caused_by',
        weight: 0.5,
        description: 'gulls delay the ferry',
        origin: 'llm',
      },
    ])
    const out = await run(root, QUESTIONS.none)
    const u4 = out.sources.find((s) => s.id === 'u4')!
    expect(u4).toMatchObject({
      reason: 'edge',
      rel_type: 'caused_by',
      rel_conf: 0.5,
      base_norm: 0,
      bonus: 0.11,
      composite_score: 0.11,
    })
    expect(out.ranking!.find((r) => r.id === 'u4')!.why).toBe('edge caused_by from S1 (conf 0.50)')
  })

  it('offline (no chat model): prints the best passages, the cited context and the ranking table, and asks no model for entities', async () => {
    const root = await project(fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }), '  completion_model_id: null')
    fake.requests.length = 0
    const { stdout } = await hybridQuery(root, QUESTIONS.graph, { json: false })
    expect(stdout).toContain('## Sources\n\n### [S1] text unit ')
    // Like the other methods offline, it leads with the cited sentences that best match the question.
    expect(stdout.split('\n')[0]).toContain(
      'here are the passages that best match the question, then the cited context',
    )
    expect(stdout).toMatch(/\n## Best passages\n\n1\. "[^"\n]+" \[S\d+\]\n/)
    expect(stdout.indexOf('## Best passages')).toBeLessThan(stdout.indexOf('## Sources'))
    expect(stdout).toContain('The keeper wrote two letters about the worn gear')
    expect(stdout).toContain('## Question entities\n\n- HARBOUR COUNCIL (frequency 1)')
    expect(stdout).toMatch(/## Ranking\n\n\| rank \| unit \| in context \| vector \| bm25 \| graph \|/)
    expect(fake.requests.map((r) => r.kind)).toEqual(['embedding'])
  })

  it("relationship_description vectors, when indexed, start the graph walk at the nearest relationship's entities", async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}${HYBRID}\n`,
    })
    await writeHybridIndex(join(root, 'output'), [], true)
    const out = await run(root, QUESTIONS.none)
    expect(out.warnings).toEqual([])
    expect(out.entities.map((e) => e.name)).toEqual(['ELIAS VENN', 'HARBOUR COUNCIL'])
    expect(out.ranking!.find((r) => r.id === 'u5')!.why).toContain('graph #1 (0 hops from ELIAS VENN)')
  })

  it('--explain and --context belong to hybrid search; a bad --context file is named', async () => {
    const root = await project(fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }))
    await expect(run(root, QUESTIONS.none, { method: 'basic' })).rejects.toThrow(
      '--explain is only available with --method hybrid',
    )
    const file = join(root, 'bad.json')
    writeFileSync(file, JSON.stringify([{ id: 'x' }]))
    await expect(run(root, QUESTIONS.none, { context: file })).rejects.toThrow(
      `${file}: item 0 must be a string or an object with a string "text"`,
    )
  })
})
