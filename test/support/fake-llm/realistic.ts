/**
 * Replies of realistic size for cost benchmarks (`startFakeLlm({ realistic: true })`): the built-in
 * replies are one-liners, which makes whatever reads them (global search over community reports)
 * look far cheaper than over a real index. These replies keep the built-in formats but take the
 * sizes measured on ../shared/reference/christmas-carol-index (written by real models), derived from
 * the input so each prompt gets its own stable answer:
 * - graph extraction: one entity per 65 input tokens (the reference: 18.5 per 1,200-token unit), as
 *   far as the text has distinct capitalised names, and 1.4 relationships per entity (26.2 per unit),
 *   each described by a sentence of the text that names it;
 * - community reports: 5 findings plus one per doubling of the community's rows, at most 10 (the
 *   reference: 5.3 findings for 1–2 members to 9.1 for more than 20), each explained in about 80
 *   words (≈ 110 tokens), and a summary of about 80 words: ≈ 650–1,700 tokens a report as in the
 *   reference (mean 973).
 */
import type { ChatMessageLike, PromptKind } from './classify.js'
import { contextIds, entityType, firstUser, hashUnit, inputSection, sectionOf } from './responders.js'
import type { Responder } from './responders.js'
import { countTokens } from './tokens.js'

const TOKENS_PER_ENTITY = 65
const RELATIONSHIPS_PER_ENTITY = 1.4
const WORDS_PER_EXPLANATION = 80

/** The sentences of `text`, whitespace collapsed, without the ones too short to say anything. */
function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .filter((s) => s.split(' ').length >= 4)
}

/** Sentences of `pool` from a stable start, joined until they reach `words` words. */
function passage(pool: readonly string[], seed: string, words: number): string {
  if (pool.length === 0) return `${seed} is described in the data.`
  const out: string[] = []
  let count = 0
  for (let i = Math.floor(hashUnit(seed) * pool.length); count < words && out.length < pool.length; i++) {
    const sentence = pool[i % pool.length]!
    out.push(sentence)
    count += sentence.split(' ').length
  }
  return out.join(' ')
}

/**
 * Capitalised words of the input (with a trailing number, as the cost bench's generated copies name
 * their characters), in order of first appearance, as entity names.
 */
function names(text: string, limit: number): string[] {
  const seen = new Set<string>()
  for (const match of inputSection(text).matchAll(/\b[A-Z][a-z]{3,}\d*\b/g)) {
    seen.add(match[0].toUpperCase())
    if (seen.size >= limit) break
  }
  return [...seen]
}

/** The first sentence naming `name` (case-insensitively), else the first sentence. */
function sentenceNaming(pool: readonly string[], name: string): string {
  const lower = name.toLowerCase()
  return pool.find((s) => s.toLowerCase().includes(lower)) ?? pool[0] ?? `${name} is mentioned.`
}

function extractGraph(messages: readonly ChatMessageLike[]): string {
  const text = firstUser(messages)
  const input = inputSection(text)
  const type = entityType(text)
  const found = names(text, Math.max(1, Math.round(countTokens(input) / TOKENS_PER_ENTITY)))
  const pool = sentences(input)
  const records = found.map((n) => `("entity"<|>${n}<|>${type}<|>${sentenceNaming(pool, n)})`)
  // Pairs at distance 1, then 2, … in order of appearance, up to the measured count.
  const wanted = Math.round(found.length * RELATIONSHIPS_PER_ENTITY)
  for (let gap = 1, made = 0; gap < found.length && made < wanted; gap++) {
    for (let i = gap; i < found.length && made < wanted; i++, made++) {
      const [a, b] = [found[i - gap]!, found[i]!]
      const strength = 1 + Math.floor(hashUnit(`${a}|${b}`) * 10)
      records.push(`("relationship"<|>${a}<|>${b}<|>${sentenceNaming(pool, b)}<|>${strength})`)
    }
  }
  return records.length === 0 ? '<|COMPLETE|>' : `${records.join('\n##\n')}\n<|COMPLETE|>`
}

/** Findings of a report over `rows` context rows: 5, plus one per doubling, at most 10. */
export function findingCount(rows: number): number {
  return Math.min(10, 5 + Math.floor(Math.log2(Math.max(1, rows))))
}

function report(messages: readonly ChatMessageLike[], kind: PromptKind): string {
  const text = firstUser(messages)
  const data = text.slice(Math.max(0, text.lastIndexOf('Real data')))
  const table =
    kind === 'community_report_text' ? 'Sources' : sectionOf(data, 'Entities') === undefined ? 'Reports' : 'Entities'
  const rows = sectionOf(data, table) ?? data
  const ids = contextIds(rows, 5).join(', ')
  const rowCount = [...rows.matchAll(/^\d+[|,]/gm)].length
  const pool = sentences(rows.replace(/^\d+[|,]/gm, ''))
  const name = [...data.matchAll(/^\d+,([^,\n]+),/gm)].map((m) => m[1]!.replace(/"/g, ''))[0] ?? 'the community'
  const findings = Array.from({ length: findingCount(rowCount) }, (_, i) => ({
    summary: `Finding ${i + 1} about ${name}`,
    explanation: `${passage(pool, `${data}|${i}`, WORDS_PER_EXPLANATION)} [Data: ${table} (${ids})].`,
  }))
  return JSON.stringify({
    title: `${name} community`,
    summary: `${passage(pool, data, WORDS_PER_EXPLANATION)} [Data: ${table} (${ids})].`,
    rating: Math.round(hashUnit(data) * 100) / 10,
    rating_explanation: `The rating reflects how central ${name} is.`,
    findings,
  })
}

/** Answers extraction and report prompts at realistic size; leaves every other kind to the built-ins. */
export const REALISTIC_RESPONDER: Responder = ({ kind, messages }) => {
  switch (kind) {
    case 'extract_graph':
      return extractGraph(messages)
    case 'community_report':
    case 'community_report_text':
      return report(messages, kind)
    default:
      return undefined
  }
}
