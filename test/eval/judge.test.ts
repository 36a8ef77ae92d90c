// The judge metrics on the demo index, with the fake server as judge: correctness/completeness,
// assertion pass rate, pairwise win rates judged in both orders (the fake judge prefers the first
// answer when it cannot tell them apart, so only both orders make the A/A check come out at 0.5),
// and judge replies that stay unusable being counted and left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, type Settings } from '../../src/config/index.js'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { loadCorpus } from '../../src/eval/corpus.js'
import { generateQuestions } from '../../src/eval/generate.js'
import { createJudge } from '../../src/eval/judge.js'
import { supports } from '../../src/eval/metrics/retrieval.js'
import { scoreForA } from '../../src/eval/metrics/pairwise.js'
import type { EvalQuestion } from '../../src/eval/questions.js'
import { type EvalResult, runEval } from '../../src/eval/run.js'
import { aaRows } from '../../src/eval/tables.js'
import { indexedDemo } from '../support/eval-demo.js'
import { testdir } from '../support/testdir.js'
import { type FakeLlm, type Responder, startFakeLlm } from '../support/fake-llm/index.js'
import { wordCoverage } from '../support/fake-llm/eval-judge.js'

const QUESTIONS: EvalQuestion[] = [
  {
    id: 'chair',
    question: 'Who is the chairman of the Aldwick Ferry Cooperative?',
    answer: 'Tobias Harrow is the chairman of the Aldwick Ferry Cooperative.',
    evidence: [],
    type: 'local',
    assertions: ['Aldwick Ferry Cooperative', 'Purple elephants dance nightly'],
  },
  {
    id: 'storm',
    question: 'What happened to the Kittiwake in the storm?',
    answer: 'The Kittiwake was wrecked in the storm.',
    evidence: [],
    type: 'global',
    assertions: [],
  },
  { id: 'agnes', question: 'Who was Agnes Fairlie?', evidence: [], type: 'local', assertions: [] },
]

/**
 * Replies that never parse for pairwise judgements of the Agnes question; a score of 11 once per storm
 * grade; for the first local question to generate, three quotes that are not in the passage.
 */
function unruly(): Responder {
  const graded = new Set<string>()
  let badQuotes = 3
  return ({ kind, messages }) => {
    const text = messages.at(-1)?.content ?? ''
    if (kind === 'eval_generate' && text.startsWith('Scope: local') && badQuotes-- > 0)
      return JSON.stringify({ question: 'Q?', answer: 'A', quote: 'words that the passage never had' })
    if (kind === 'eval_judge_pairwise' && text.includes('Agnes Fairlie?')) return 'I cannot decide.'
    if (kind === 'eval_judge_correctness' && text.includes('Kittiwake in the storm') && !graded.has(text)) {
      graded.add(text)
      return JSON.stringify({ reasoning: 'out of range', correctness: 11, completeness: 11 })
    }
    return undefined
  }
}

describe('eval with a judge', () => {
  let fake: FakeLlm
  let settings: Settings
  let result: EvalResult
  let root: string

  beforeAll(async () => {
    fake = await startFakeLlm({ responders: [unruly()] })
    root = await indexedDemo(fake.baseUrl)
    settings = loadConfig({ root }).settings
    const judge = createJudge(settings)!
    const targets = [{ label: 'demo', settings }]
    result = await runEval({
      targets,
      methods: ['basic', 'local'],
      questions: QUESTIONS,
      judge,
      pairwise: true,
      concurrency: 4,
    })
  }, 60_000)
  afterAll(async () => {
    await fake?.close()
  })

  const answer = (system: string, id: string) => result.answers.find((a) => a.system === system && a.questionId === id)!

  it('grades correctness and completeness against the gold answer (0–10 → 0–1), asked again when out of range', () => {
    for (const system of ['basic', 'local']) {
      for (const q of QUESTIONS.slice(0, 2)) {
        const coverage = wordCoverage(q.answer!, answer(system, q.id).response)
        expect(answer(system, q.id).metrics.completeness).toBe(Math.round(coverage * 10) / 10)
        expect(answer(system, q.id).metrics.correctness).toBe(
          coverage > 0 ? Math.min(10, Math.round(coverage * 10) + 2) / 10 : 0,
        )
      }
      // No gold answer: no grade asked.
      expect(answer(system, 'agnes').metrics.correctness).toBeUndefined()
    }
    const grades = fake.requests.filter((r) => r.kind === 'eval_judge_correctness')
    expect(grades).toHaveLength(2 * 2 + 2) // four answers with gold, the storm's two asked twice
  })

  it('assertion pass rate: the share of the question’s assertions the judge finds in the answer', () => {
    expect(answer('basic', 'chair').metrics.assertion_pass_rate).toBe(0.5)
    expect(answer('local', 'chair').metrics.assertion_pass_rate).toBe(0.5)
    expect(answer('basic', 'storm').metrics.assertion_pass_rate).toBeUndefined()
  })

  it('judges every pair in both orders; A/A comes out at 0.5 although the judge favours position 1 on a tie', () => {
    // 3 pairs (basic/basic, basic/local, local/local) × 4 criteria × 2 orders per question; the Agnes
    // question's 24 unusable replies were each asked once more by the LLM layer (max_retries 1).
    expect(fake.requests.filter((r) => r.kind === 'eval_judge_pairwise')).toHaveLength(3 * 3 * 4 * 2 + 24)
    expect(result.aa.map((p) => p.winRate)).toEqual(Array(8).fill(0.5))
    expect(aaRows(result)).toEqual([
      { system: 'basic', winRate: 0.5, ok: true },
      { system: 'local', winRate: 0.5, ok: true },
    ])
  })

  it('win rate of basic over local: more distinct words wins in both orders, equal counts tie at ½', () => {
    const words = (t: string) => new Set(t.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).size
    const expected = QUESTIONS.slice(0, 2).map((q) => {
      const [b, l] = [words(answer('basic', q.id).response), words(answer('local', q.id).response)]
      return scoreForA({ aFirst: b >= l ? 'first' : 'second', bFirst: l >= b ? 'first' : 'second' })
    })
    const relevance = result.pairs.find((p) => p.criterion === 'relevance')!
    expect(relevance).toMatchObject({ a: 'basic', b: 'local' })
    expect(relevance.winRate).toBe((expected[0]! + expected[1]!) / 2)
    expect(result.systems.find((s) => s.system === 'basic')!.metrics.win_rate).toBe(relevance.winRate)
  })

  it('counts judgements whose reply never became valid JSON and leaves them out of the win rates', () => {
    // The Agnes question: 3 pairs × 4 criteria × 2 orders unusable after the layer's retry.
    expect(result.judge).toMatchObject({ model: 'judge', unusable: 24 })
    for (const p of [...result.pairs, ...result.aa]) expect(p.wins + p.losses + p.ties).toBe(2)
  })

  it('--generate with a model: its questions, a local quote checked against the passage, else the offline cloze', async () => {
    const judge = createJudge(settings)!
    const corpus = await loadCorpus(join(root, 'output'))
    const questions = await generateQuestions(corpus, 4, judge)
    expect(questions.map((q) => [q.id, q.generator])).toEqual([
      ['gen-l01', 'cloze'],
      ['gen-l02', 'model'],
      ['gen-g01', 'model'],
      ['gen-g02', 'model'],
    ])
    expect(judge.unusable).toBe(1)
    expect(questions[1]!.question).toMatch(/^\(local\) What does the text say about /)
    expect(corpus.units.some((u) => supports({ text: u.text, documents: [] }, questions[1]!.evidence[0]!))).toBe(true)
    expect(questions[2]!.question).toMatch(/^\(global\) /)
    expect(questions[2]!.evidence.every((d) => d.endsWith('.txt'))).toBe(true)
  })

  it('a method the index cannot serve is reported per answer and counted, the others still scored', async () => {
    const copy = await testdir()
    cpSync(root, copy, { recursive: true })
    rmSync(join(copy, 'output', 'community_reports.parquet'))
    const copied = loadConfig({ root: copy }).settings
    const run = await runEval({
      targets: [{ label: 'no-reports', settings: copied }],
      methods: ['global', 'basic'],
      questions: QUESTIONS.slice(0, 2),
      pairwise: false,
      concurrency: 1,
    })
    expect(run.systems.map((s) => [s.system, s.errors, s.metrics.answer_recall === undefined])).toEqual([
      ['global', 2, true],
      ['basic', 0, false],
    ])
    expect(run.answers[0]!.error).toMatch(/community_reports/)
  })
})
