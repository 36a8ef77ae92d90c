/**
 * The fake model's replies to lazy search, derived from the text so tests can predict them: a
 * sentence of a passage is relevant when it shares a content word (five letters or more) with the
 * question (a passage when one of its sentences is), a
 * claim is the first sentence of a relevant passage that shares one, and the answer cites the
 * sources of the first claims it is given.
 */
import type { ChatMessageLike, LazyKind } from './classify.js'

const STOP = new Set([
  'about',
  'which',
  'there',
  'their',
  'where',
  'these',
  'those',
  'would',
  'could',
  'should',
  'other',
])

/** The lower-case words of five letters or more, stop words left out. */
function contentWords(text: string): Set<string> {
  return new Set([...text.toLowerCase().matchAll(/[a-z]{5,}/g)].map((m) => m[0]).filter((w) => !STOP.has(w)))
}

/** True when `passage` shares a content word with `question`: the fake's relevance rule. */
export function fakeRelevant(question: string, passage: string): boolean {
  const words = contentWords(passage)
  return [...contentWords(question)].some((w) => words.has(w))
}

/** The question and `==== passage N ====` blocks of a relevance or claim call's user message. */
export function lazyPassages(user: string): { question: string; passages: Array<{ label: string; text: string }> } {
  const question = /^Question: (.*)$/m.exec(user)?.[1] ?? ''
  // split with a capturing group: [before, label1, text1, label2, text2, …]
  const parts = user.split(/^==== passage (\S+) ====\n/m)
  const passages = []
  for (let i = 1; i + 1 < parts.length; i += 2) passages.push({ label: parts[i]!, text: parts[i + 1]!.trim() })
  return { question, passages }
}

function subqueries(system: string, question: string): string {
  const count = Number(/at most (\d+) sub-questions/.exec(system)?.[1] ?? 3)
  const names = [...new Set([...question.matchAll(/(?<=\s)[A-Z][a-z]{3,}/g)].map((m) => m[0]))]
  const list = [question, ...names.map((n) => `What does the collection say about ${n}?`)].slice(0, count)
  return JSON.stringify({ subqueries: list })
}

/** The numbered sentences (`[n] text`, one a line) of a relevance call's passage. */
export function numberedSentences(passage: string): Array<{ n: number; text: string }> {
  return [...passage.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ n: Number(m[1]), text: m[2]! }))
}

/** Per passage with a relevant sentence, the numbers of its sentences sharing a content word with the question. */
function relevance(user: string): string {
  const { question, passages } = lazyPassages(user)
  const relevant: Record<string, number[]> = {}
  for (const p of passages) {
    const hits = numberedSentences(p.text).filter((s) => fakeRelevant(question, s.text))
    if (hits.length > 0) relevant[p.label] = hits.map((s) => s.n)
  }
  return JSON.stringify({ relevant })
}

function claims(user: string): string {
  const { question, passages } = lazyPassages(user)
  const asked = contentWords(question)
  const out = passages.flatMap((p) => {
    const sentence = p.text.split(/(?<=[.!?])\s+/).find((s) => [...contentWords(s)].some((w) => asked.has(w)))
    if (sentence === undefined) return []
    const shared = [...contentWords(sentence)].filter((w) => asked.has(w)).length
    return [{ claim: sentence.trim(), sources: [Number(p.label)], score: Math.min(10, shared) }]
  })
  return JSON.stringify({ claims: out })
}

function answer(system: string, question: string): string {
  const claims = system.slice(system.indexOf('---Claims---'))
  const labels = [...claims.matchAll(/\[Data: Sources \(([^)]*)\)\]/g)].flatMap((m) => m[1]!.split(', '))
  const cited = [...new Set(labels)].slice(0, 3).join(', ')
  return `## Answer\n\nThe claims bear on "${question.slice(0, 80)}" [Data: Sources (${cited})].`
}

export function lazyReply(kind: LazyKind, messages: readonly ChatMessageLike[]): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? ''
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
  switch (kind) {
    case 'lazy_subqueries':
      return subqueries(system, user)
    case 'lazy_relevance':
      return relevance(user)
    case 'lazy_claims':
      return claims(user)
    case 'lazy_answer':
      return answer(system, user)
  }
}
