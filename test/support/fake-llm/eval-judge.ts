/**
 * The fake judge of `graphrag eval`: deterministic verdicts derived from the texts it is shown.
 * Pairwise, it prefers the answer with more distinct words and, when they are equal, the FIRST one: a
 * position bias on purpose, which only judging both orders cancels (the A/A check tests that).
 */
import type { ChatMessageLike, EvalKind } from './classify.js'

function lastUser(messages: readonly ChatMessageLike[]): string {
  return [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
}

/** The text after a `--- Name ---` line, up to the next such line. */
function block(text: string, name: string): string {
  const start = text.indexOf(`--- ${name} ---\n`)
  if (start < 0) return ''
  const body = text.slice(start + name.length + 9)
  const end = body.search(/\n\n--- [^\n]+ ---\n/)
  return end < 0 ? body : body.slice(0, end)
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter(Boolean))
}

/** Share of `reference`'s words found in `answer` (1 for a reference without words). */
export function wordCoverage(reference: string, answer: string): number {
  const ref = words(reference)
  if (ref.size === 0) return 1
  const ans = words(answer)
  return [...ref].filter((w) => ans.has(w)).length / ref.size
}

function pairwise(text: string): string {
  const first = words(block(text, 'Answer 1')).size
  const second = words(block(text, 'Answer 2')).size
  const winner = second > first ? '2' : '1'
  return JSON.stringify({ reasoning: `Answer ${winner} covers more of the question.`, winner })
}

function correctness(text: string): string {
  const coverage = wordCoverage(block(text, 'Reference answer'), block(text, 'Answer'))
  const completeness = Math.round(coverage * 10)
  return JSON.stringify({
    reasoning: 'Graded by the words of the reference found in the answer.',
    correctness: coverage > 0 ? Math.min(10, completeness + 2) : 0,
    completeness,
  })
}

function assertion(text: string): string {
  const claim = /^Assertion: (.*)$/m.exec(text)?.[1] ?? ''
  const holds = wordCoverage(claim, block(text, 'Answer')) >= 0.6
  return JSON.stringify({ reasoning: holds ? 'The answer says so.' : 'The answer does not say so.', holds })
}

/** A question about the first sentence of the text, which is both answer and quote. */
function generate(text: string): string {
  const scope = /^Scope: (\w+)/m.exec(text)?.[1] ?? 'local'
  const body = text.slice(text.indexOf('--- Text ---\n') + 13)
  const sentence =
    body
      .split(/(?<=[.!?])\s+/)
      .find((s) => s.split(/\s+/).length >= 6)
      ?.trim() ?? body.trim()
  const subject = /\b[A-Z][a-z]{3,}\b/.exec(sentence)?.[0] ?? 'the text'
  return JSON.stringify({
    question: `(${scope}) What does the text say about ${subject}?`,
    answer: sentence,
    quote: sentence,
  })
}

export function evalReply(kind: EvalKind, messages: readonly ChatMessageLike[]): string | undefined {
  const text = lastUser(messages)
  switch (kind) {
    case 'eval_judge_pairwise':
      return pairwise(text)
    case 'eval_judge_correctness':
      return correctness(text)
    case 'eval_assertion':
      return assertion(text)
    case 'eval_generate':
      return generate(text)
    default:
      return undefined
  }
}
