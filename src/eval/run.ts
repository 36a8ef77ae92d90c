/**
 * `graphrag eval`: asks every question of every system (an index × a search method), one at a time
 * so latencies are not inflated by each other, scores the retrieval offline, then lets the judge
 * grade the answers and compare every pair of systems in both orders.
 */
import { resolve } from 'node:path'
import type { Settings } from '../config/index.js'
import { GraphragError } from '../errors.js'
import { mapBounded } from '../storage/bounded-map.js'
import { runQuery, type SearchMethod } from '../query/index.js'
import { readableIndex } from '../storage/generations.js'
import { type Corpus, loadCorpus } from './corpus.js'
import { CRITERIA, type Criterion } from './judge-prompts.js'
import type { Judge } from './judge.js'
import { aggregatePairs, type PairJudgement, type PairResult } from './metrics/pairwise.js'
import { answerTokenRecall, evidenceRecallAtK, reciprocalRank } from './metrics/retrieval.js'
import { mean } from './metrics/stats.js'
import { retrievedPassages } from './passages.js'
import type { EvalQuestion } from './questions.js'
import { type UnreachableEvidence, unreachableEvidence } from './reachable.js'
import { type AnswerRecord, type SystemSummary, summarize } from './summary.js'

export interface EvalTarget {
  /** How the index is named in the output (the root folder's name, made unique). */
  label: string
  settings: Settings
}

export interface EvalOptions {
  targets: readonly EvalTarget[]
  methods: readonly SearchMethod[]
  questions: readonly EvalQuestion[]
  judge?: Judge
  /** Compare every pair of systems (and each with itself, the A/A check); needs a judge. */
  pairwise: boolean
  /** Judge calls in flight at once. */
  concurrency: number
  progress?: (line: string) => void
}

export interface EvalResult {
  questions: number
  topK: number
  systems: SystemSummary[]
  /** Every pair of different systems, per criterion. */
  pairs: PairResult[]
  /** Each system against itself, per criterion: should be near 0.5. */
  aa: PairResult[]
  answers: AnswerRecord[]
  judge: { model: string; calls: number; costUsd: number | null; unusable: number } | null
  /** Per index: gold evidence no text unit supports (no method can recall it). */
  unreachable: Record<string, UnreachableEvidence[]>
}

export async function runEval(options: EvalOptions): Promise<EvalResult> {
  const answers: AnswerRecord[] = []
  const unreachable: Record<string, UnreachableEvidence[]> = {}
  for (const target of options.targets) {
    const { records, corpus } = await answerAll(target, options)
    answers.push(...records)
    unreachable[target.label] = unreachableEvidence(options.questions, corpus)
  }
  if (options.judge !== undefined) await gradeAll(answers, options.questions, options.judge, options)
  const judgements =
    options.judge !== undefined && options.pairwise ? await compareAll(answers, options, options.judge) : []
  const allPairs = aggregatePairs(judgements)
  const pairs = allPairs.filter((p) => p.a !== p.b)
  const judgeUsage = options.judge?.usage()
  return {
    questions: options.questions.length,
    topK: options.targets[0]!.settings.eval.top_k,
    systems: summarize(answers, pairs),
    pairs,
    aa: allPairs.filter((p) => p.a === p.b),
    answers,
    judge:
      options.judge === undefined
        ? null
        : {
            model: options.judge.model.id,
            calls: judgeUsage!.calls,
            costUsd: judgeUsage!.costUsd,
            unusable: options.judge.unusable,
          },
    unreachable,
  }
}

async function answerAll(
  target: EvalTarget,
  options: EvalOptions,
): Promise<{ records: AnswerRecord[]; corpus: Corpus }> {
  const { settings } = target
  const index = await readableIndex(resolve(settings.output_storage.base_dir), settings.vector_store.db_uri)
  const corpus = await loadCorpus(index.dataDir)
  const records: AnswerRecord[] = []
  for (const method of options.methods) {
    const system = options.targets.length > 1 ? `${target.label}/${method}` : method
    options.progress?.(`${system}: ${options.questions.length} questions`)
    for (const question of options.questions) records.push(await answerOne(target, method, system, question, corpus))
  }
  return { records, corpus }
}

async function answerOne(
  target: EvalTarget,
  method: SearchMethod,
  system: string,
  question: EvalQuestion,
  corpus: Corpus,
): Promise<AnswerRecord> {
  const base = { questionId: question.id, type: question.type, system, target: target.label, method }
  const started = performance.now()
  try {
    const result = await runQuery({ method, query: question.question, settings: target.settings })
    const latencyMs = performance.now() - started
    const passages = retrievedPassages(result, corpus)
    const metrics = {
      answer_recall: answerTokenRecall(question.answer, result.contextText),
      evidence_recall: evidenceRecallAtK(passages, question.evidence, target.settings.eval.top_k),
      mrr: reciprocalRank(passages, question.evidence),
    }
    return {
      ...base,
      response: result.response,
      latencyMs,
      calls: result.usage.calls,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      costUsd: result.usage.costUsd,
      metrics: Object.fromEntries(Object.entries(metrics).filter(([, v]) => v !== undefined)),
    }
  } catch (error) {
    // A method the index cannot serve (no reports for global search, …) is reported, not fatal.
    if (!(error instanceof GraphragError)) throw error
    const failed = { response: '', latencyMs: 0, calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 }
    return { ...base, ...failed, metrics: {}, error: error.message }
  }
}

/** Correctness and completeness against the gold answer, and the share of assertions that hold. */
async function gradeAll(
  answers: AnswerRecord[],
  questions: readonly EvalQuestion[],
  judge: Judge,
  options: EvalOptions,
): Promise<void> {
  const byId = new Map(questions.map((q) => [q.id, q]))
  options.progress?.(`judging ${answers.length} answers`)
  await mapBounded(answers, options.concurrency, async (record) => {
    const question = byId.get(record.questionId)!
    if (record.error !== undefined) return
    if (question.answer !== undefined) {
      const grade = await judge.grade(question.question, question.answer, record.response)
      if (grade !== undefined) Object.assign(record.metrics, grade)
    }
    if (question.assertions.length > 0) {
      const holds = await Promise.all(
        question.assertions.map((a) => judge.assertion(question.question, record.response, a)),
      )
      const rate = mean(holds.map((h) => (h === undefined ? undefined : h ? 1 : 0)))
      if (rate !== undefined) record.metrics.assertion_pass_rate = rate
    }
  })
}

/** Every pair of systems (i ≤ j: j = i is the A/A check) on every question and criterion, in both orders. */
async function compareAll(
  answers: readonly AnswerRecord[],
  options: EvalOptions,
  judge: Judge,
): Promise<PairJudgement[]> {
  const systems = [...new Set(answers.map((r) => r.system))]
  const answerOf = new Map(answers.map((r) => [`${r.system}\u0000${r.questionId}`, r]))
  const tasks: Array<{ question: number; a: string; b: string; criterion: Criterion }> = []
  options.questions.forEach((_, question) => {
    for (let i = 0; i < systems.length; i++)
      for (let j = i; j < systems.length; j++)
        for (const criterion of Object.keys(CRITERIA) as Criterion[])
          tasks.push({ question, a: systems[i]!, b: systems[j]!, criterion })
  })
  options.progress?.(`comparing answers: ${tasks.length * 2} judgements`)
  const judged = await mapBounded(tasks, options.concurrency, async (task): Promise<PairJudgement | undefined> => {
    const q = options.questions[task.question]!
    const a = answerOf.get(`${task.a}\u0000${q.id}`)!
    const b = answerOf.get(`${task.b}\u0000${q.id}`)!
    if (a.error !== undefined || b.error !== undefined) return undefined
    const [aFirst, bFirst] = await Promise.all([
      judge.pairwise(q.question, task.criterion, a.response, b.response),
      judge.pairwise(q.question, task.criterion, b.response, a.response),
    ])
    if (aFirst === undefined || bFirst === undefined) return undefined
    return { ...task, aFirst, bFirst }
  })
  return judged.filter((j): j is PairJudgement => j !== undefined)
}
