/**
 * `graphrag eval --generate N`: questions drawn from the index itself, as BenchmarkQED's AutoQ does.
 * Local questions come from sampled text units (evidence: the supporting quote), global ones from
 * community reports (evidence: the documents of the community). With a chat model (eval.judge_model_id)
 * the model writes them; offline a deterministic extractive generator writes cloze questions: a
 * sentence of the unit with a name or number held out as the answer. Sampling is seeded.
 */
import { seededRng, shuffled } from '../query/rng.js'
import type { Corpus, CorpusReport, CorpusUnit } from './corpus.js'
import type { Judge } from './judge.js'

export interface GeneratedQuestion {
  id: string
  type: 'local' | 'global'
  question: string
  answer: string
  evidence: string[]
  /** Who wrote it: the chat model, or the offline extractive generator. */
  generator: 'model' | 'cloze' | 'report'
}

const SEED = 41
/** Sentences shorter than this say too little to ask about; longer ones are hard to read as a cloze. */
const MIN_WORDS = 8
const MAX_WORDS = 45
/** A name of two or more capitalised words, or a number with the word after it ("14 November", "1961"). */
const HELD_OUT = /\b(?:[A-Z][a-z]+(?: (?:of |the )?[A-Z][a-z]+)+|\d[\d,.:]*(?: [A-Z]?[a-z]+)?)\b/g

/** Sentences of each paragraph (a heading is a paragraph of its own, not the start of the next sentence). */
function sentences(text: string): string[] {
  return text.split(/\n\s*\n/).flatMap((paragraph) =>
    paragraph
      .replace(/\s+/g, ' ')
      .split(/(?<=[.!?])\s+(?=[A-Z"'‘“])/)
      .map((s) => s.trim()),
  )
}

/** The span a cloze question holds out: the longest name or number not opening the sentence. */
export function clozeSpan(sentence: string): { start: number; text: string } | undefined {
  const spans = [...sentence.matchAll(HELD_OUT)].filter((m) => m.index > 0)
  const best = spans.sort((a, b) => b[0].length - a[0].length || a.index - b.index)[0]
  return best === undefined ? undefined : { start: best.index, text: best[0] }
}

/** A cloze question from a text unit's sentences (the first that qualifies in seeded order), or undefined. */
export function clozeQuestion(unit: CorpusUnit, rng: () => number): Omit<GeneratedQuestion, 'id'> | undefined {
  const candidates = sentences(unit.text).filter((s) => {
    const words = s.split(' ').length
    return words >= MIN_WORDS && words <= MAX_WORDS && clozeSpan(s) !== undefined
  })
  const sentence = shuffled(candidates, rng)[0]
  if (sentence === undefined) return undefined
  const span = clozeSpan(sentence)!
  const blanked = `${sentence.slice(0, span.start)}____${sentence.slice(span.start + span.text.length)}`
  return {
    type: 'local',
    question: `Fill in the blank: ${blanked}`,
    answer: span.text,
    evidence: [sentence],
    generator: 'cloze',
  }
}

/** A theme question from a report: its title asked about, its summary as the answer. */
export function reportQuestion(report: CorpusReport): Omit<GeneratedQuestion, 'id'> {
  const body =
    report.text
      .replace(/^#[^\n]*\n+/, '')
      .split(/\n\s*\n/)[0]
      ?.trim() ?? ''
  return {
    type: 'global',
    question: `What are the main themes and events involving ${report.title}?`,
    answer: body === '' ? report.title : body,
    evidence: report.documents,
    generator: 'report',
  }
}

async function fromModel(
  judge: Judge,
  scope: 'local' | 'global',
  text: string,
  documents: string[],
): Promise<Omit<GeneratedQuestion, 'id'> | undefined> {
  const reply = await judge.generate(scope, text)
  if (reply === undefined) return undefined
  const evidence = scope === 'local' ? [reply.quote] : documents
  return { type: scope, question: reply.question, answer: reply.answer, evidence, generator: 'model' }
}

/**
 * `n` questions: half local (rounded up), half global when the index has reports (else all local).
 * With a judge, an item whose reply stays unusable falls back to the offline generator.
 */
export async function generateQuestions(corpus: Corpus, n: number, judge?: Judge): Promise<GeneratedQuestion[]> {
  const rng = seededRng(SEED)
  const globalCount = corpus.reports.length === 0 ? 0 : Math.min(Math.floor(n / 2), corpus.reports.length)
  const out: Array<Omit<GeneratedQuestion, 'id'>> = []
  for (const unit of shuffled(corpus.units, rng)) {
    if (out.length >= n - globalCount) break
    const offline = clozeQuestion(unit, rng)
    const made =
      judge === undefined ? offline : ((await fromModel(judge, 'local', unit.text, [unit.document])) ?? offline)
    // Two units may yield the same question (a repeated sentence, a blank where they differ): ask it once.
    if (made !== undefined && !out.some((q) => q.question === made.question)) out.push(made)
  }
  for (const report of shuffled(corpus.reports, rng).slice(0, globalCount)) {
    const offline = reportQuestion(report)
    out.push(
      judge === undefined ? offline : ((await fromModel(judge, 'global', report.text, report.documents)) ?? offline),
    )
  }
  let local = 0
  let global = 0
  return out.map((q) => ({
    id: q.type === 'local' ? `gen-l${String(++local).padStart(2, '0')}` : `gen-g${String(++global).padStart(2, '0')}`,
    ...q,
  }))
}
