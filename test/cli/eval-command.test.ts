// `graphrag eval` as a user runs it (the built CLI), on one offline demo index with the fake server
// as judge: every method, JSON, the report, the A/A check and --fail-under's exit code; the tables;
// and a GraphRAG-Bench-shaped question file through the documented --field mapping.
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT_BELOW_THRESHOLD } from '../../src/eval/fail-under.js'
import { SEARCH_METHODS } from '../../src/query/methods.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { indexedDemo } from '../support/eval-demo.js'
import { type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'

interface EvalJson {
  systems: Array<{ system: string; metrics: Record<string, number>; byType: Record<string, Record<string, number>> }>
  pairs: Array<{ a: string; b: string; criterion: string; winRate: number }>
  aaCheck: Array<{ system: string; winRate: number; ok: boolean }>
  answers: Array<{ questionId: string; metrics: Record<string, number> }>
  judge: { model: string; unusable: number }
  unreachable: Record<string, Array<{ questionId: string; evidence: string }>>
}

// The first eval is spawned; the others ask the same command in process (runCliInProcess: same main(),
// output and exit codes, no Node start-up per run).
describe('graphrag eval', () => {
  let fake: FakeLlm
  let root: string
  let questions: string

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await indexedDemo(fake.baseUrl)
    // Three questions of the demo pack: two local, one global.
    const pack = JSON.parse(readFileSync(join(PROJECT_ROOT, 'fixtures', 'eval', 'demo-questions.json'), 'utf8'))
    const picked = pack.questions.filter((q: { id: string }) => ['demo-l01', 'demo-l05', 'demo-g01'].includes(q.id))
    questions = join(root, 'questions.json')
    writeFileSync(questions, JSON.stringify(picked))
  }, 60_000)
  afterAll(async () => {
    await fake?.close()
  })

  it('judges every method with the fake model: JSON, HTML report, A/A at 0.5, and a failed gate exits 3', async () => {
    const report = join(root, 'report.html')
    const gates = ['--fail-under', 'answer_recall=0', '--fail-under', 'hybrid.answer_recall=1.01']
    const r = await runCli(['eval', '--root', root, '--questions', questions, '--json', '--report', report, ...gates])
    expect(r.stderr).toMatch(/^eval: FAIL hybrid\.answer_recall = [\d.]+ is below 1\.01\n$/)
    expect(r.code).toBe(EXIT_BELOW_THRESHOLD)
    const out = JSON.parse(r.stdout) as EvalJson
    expect(out.systems.map((s) => s.system)).toEqual([...SEARCH_METHODS])
    for (const s of out.systems) {
      expect(Object.keys(s.metrics)).toEqual(
        expect.arrayContaining([
          'answer_recall',
          'evidence_recall',
          'mrr',
          'correctness',
          'completeness',
          'win_rate',
          'assertion_pass_rate',
          'latency_p50_ms',
          'latency_p95_ms',
          'cost_usd',
        ]),
      )
      expect(Object.keys(s.byType).sort()).toEqual(['global', 'local'])
    }
    expect(out.aaCheck.map((a) => a.system)).toEqual([...SEARCH_METHODS])
    for (const aa of out.aaCheck) expect(Math.abs(aa.winRate - 0.5)).toBeLessThanOrEqual(0.1)
    // Every pair of different methods × 4 criteria.
    const n = SEARCH_METHODS.length
    expect(out.pairs).toHaveLength(((n * (n - 1)) / 2) * 4)
    expect(out.judge).toMatchObject({ model: 'judge', unusable: 0 })
    const html = readFileSync(report, 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html.match(/<svg /g)).toHaveLength(3)
    expect(html).toContain('A/A check')
  }, 120_000)

  it('prints the tables, and passes its gates with exit code 0', async () => {
    const r = await runCliInProcess([
      'eval',
      '--root',
      root,
      '--questions',
      questions,
      '--methods',
      'basic,hybrid',
      '--no-pairwise',
      '--fail-under',
      'basic.mrr=0.1',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /^Metrics per system \(3 questions, evidence recall@10\)\nsystem +answered +answer_recall +evidence_recall +mrr +correctness/,
    )
    expect(r.stdout).toMatch(/\nbasic +3\/3 /)
    expect(r.stdout).toMatch(/\nhybrid +global +/)
    expect(r.stdout).not.toContain('Pairwise')
  }, 60_000)

  it('runs a GraphRAG-Bench-shaped question file through --field type=question_type', async () => {
    const bench = join(root, 'novel_questions.json')
    const record = {
      id: 'Novel-1',
      source: 'Novel-1',
      question: "What did Walter Brisk's written survey of 6 December say about the Kittiwake?",
      answer: 'Stern planking unsound; replace it before further service.',
      question_type: 'Fact Retrieval',
      evidence: ['Stern planking unsound, replace before further service.'],
    }
    // A paraphrased "quote", as public sets have: no text unit holds it, and the run says so.
    const paraphrased = { ...record, id: 'Novel-2', evidence: ['The survey said the stern planks were unsound.'] }
    writeFileSync(bench, JSON.stringify([record, paraphrased]))
    const r = await runCliInProcess([
      'eval',
      '--root',
      root,
      '--questions',
      bench,
      '--field',
      'type=question_type',
      '--methods',
      'basic',
      '--no-pairwise',
      '--json',
    ])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as EvalJson
    expect(Object.keys(out.systems[0]!.byType)).toEqual(['Fact Retrieval'])
    expect(out.answers[0]).toMatchObject({
      questionId: 'Novel-1',
      metrics: { answer_recall: 1, evidence_recall: 1, mrr: 1 },
    })
    expect(out.unreachable).toEqual({
      [basename(root)]: [{ questionId: 'Novel-2', evidence: 'The survey said the stern planks were unsound.' }],
    })
  }, 60_000)

  it('--generate writes questions with evidence that eval then reads, and never overwrites the file', async () => {
    const file = join(root, 'generated.jsonl')
    const made = await runCliInProcess(['eval', '--root', root, '--generate', '4', '--output', file])
    expect(made.stdout).toBe(`wrote 4 questions (2 local, 2 global) to ${file}\n`)
    expect(made.code).toBe(0)
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; evidence: string[] })
    expect(lines.map((q) => q.type)).toEqual(['local', 'local', 'global', 'global'])
    for (const q of lines) expect(q.evidence.length).toBeGreaterThan(0)
    const again = await runCliInProcess(['eval', '--root', root, '--generate', '4', '--output', file])
    expect(again.stderr).toBe(`graphrag: --output ${file} exists; remove it or choose another file\n`)
    expect(again.code).toBe(1)
    const r = await runCliInProcess([
      'eval',
      '--root',
      root,
      '--questions',
      file,
      '--methods',
      'basic',
      '--no-pairwise',
      '--json',
    ])
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as EvalJson).systems[0]!.metrics.evidence_recall).toBeGreaterThan(0)
  }, 60_000)

  it('compares settings variants (--config twice) and indexes (--root twice) as systems named by them', async () => {
    const variant = join(root, 'small-context.yaml')
    writeFileSync(
      variant,
      readFileSync(join(root, 'settings.yaml'), 'utf8').replace(/max_context_tokens: 1500/g, 'max_context_tokens: 300'),
    )
    const name = basename(root)
    const configs = ['--config', join(root, 'settings.yaml'), '--config', variant]
    const r = await runCliInProcess([
      'eval',
      '--root',
      root,
      ...configs,
      '--questions',
      questions,
      '--methods',
      'basic',
      '--no-pairwise',
      '--json',
    ])
    expect(r.code).toBe(0)
    const systems = (JSON.parse(r.stdout) as EvalJson).systems
    expect(systems.map((s) => s.system)).toEqual([`${name}:settings.yaml/basic`, `${name}:small-context.yaml/basic`])
    // A fifth of the context budget recalls less of the gold answers.
    expect(systems[1]!.metrics.answer_recall).toBeLessThan(systems[0]!.metrics.answer_recall!)
    const roots = await runCliInProcess([
      'eval',
      '--root',
      root,
      '--root',
      root,
      '--questions',
      questions,
      '--methods',
      'basic',
      '--no-pairwise',
      '--fail-under',
      'basic.mrr=1.1',
    ])
    expect(roots.code).toBe(EXIT_BELOW_THRESHOLD)
    expect(
      roots.stderr
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/ = [\d.]+ /, ' = x ')),
    ).toEqual([`eval: FAIL ${name}/basic.mrr = x is below 1.1`, `eval: FAIL ${name}#2/basic.mrr = x is below 1.1`])
  }, 60_000)
})
