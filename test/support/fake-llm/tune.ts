/**
 * Answers of the fake server to the questions of `graphrag prompt-tune`, derived from the quoted
 * passages so a test corpus controls them: an entity's type is the noun an article puts before its
 * capitalised name ("the ship Kestrel" → Kestrel, ship; "le navire Mistral" → Mistral, navire), the
 * language is the one whose common words the passages use most, the domain their two most frequent
 * long words.
 */
import type { ChatMessageLike, TuneKind } from './classify.js'

const ARTICLES = 'the|a|an|le|la|les|un|une|el|los|las|der|die|das|ein|eine'
const capitalised = ARTICLES.split('|')
  .map((a) => a[0]!.toUpperCase() + a.slice(1))
  .join('|')
const TYPED_NAME = new RegExp(`\\b(?:${ARTICLES}|${capitalised})\\s+(\\p{Ll}{3,})\\s+(\\p{Lu}\\p{Ll}{2,})`, 'gu')

const LANGUAGE_WORDS: Record<string, readonly string[]> = {
  English: ['the', 'and', 'of', 'to', 'is', 'was', 'with', 'in'],
  French: ['le', 'la', 'les', 'et', 'des', 'est', 'du', 'une', 'dans'],
  German: ['der', 'die', 'das', 'und', 'ist', 'mit', 'ein', 'eine'],
  Spanish: ['el', 'los', 'las', 'y', 'es', 'con', 'una', 'del'],
}

/** The text after the prompt's `# Passage` / `# Passages` heading. */
function passages(prompt: string): string {
  const at = prompt.search(/^# Passages?\n/m)
  return at < 0 ? '' : prompt.slice(prompt.indexOf('\n', at) + 1)
}

function typedNames(text: string): Array<{ name: string; type: string }> {
  const out: Array<{ name: string; type: string }> = []
  for (const m of text.matchAll(TYPED_NAME)) {
    if (!out.some((x) => x.name === m[2])) out.push({ name: m[2]!, type: m[1]! })
  }
  return out
}

function language(text: string): string {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? []
  let best = 'English'
  let bestCount = -1
  for (const [name, common] of Object.entries(LANGUAGE_WORDS)) {
    const count = words.filter((w) => common.includes(w)).length
    if (count > bestCount) [best, bestCount] = [name, count]
  }
  return best
}

function domain(text: string): string {
  const counts = new Map<string, number>()
  for (const w of text.toLowerCase().match(/\p{L}{6,}/gu) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1)
  const top = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 2)
    .map(([w]) => w)
  return top.length === 0 ? 'general documents' : top.join(' and ')
}

/** The value after `label` up to the end of its line (`documents about: X.`). */
function after(prompt: string, label: RegExp): string {
  return label.exec(prompt)?.[1]?.trim() ?? ''
}

function example(prompt: string): string {
  const allowed = after(prompt, /whose type is one of: ([^;\n]*);/)
    .split(',')
    .map((t) => t.trim().toUpperCase())
  const entities = typedNames(passages(prompt))
    .map((e) => ({
      name: e.name.toUpperCase(),
      type: e.type.toUpperCase(),
      description: `${e.name} is the ${e.type} named in the passage`,
    }))
    .filter((e) => allowed.includes(e.type))
  const relationships = entities.slice(1).map((e, i) => ({
    source: entities[i]!.name,
    target: e.name,
    description: `${entities[i]!.name} appears beside ${e.name}`,
    strength: 1 + ((i * 3) % 10),
  }))
  return JSON.stringify({ entities, relationships })
}

export function tuneReply(kind: TuneKind, messages: readonly ChatMessageLike[]): string {
  const prompt = messages.find((m) => m.role === 'user')?.content ?? ''
  const topic = after(prompt, /(?:documents|document collection|found in documents) about:? ([^.,\n]*)[.,]/)
  switch (kind) {
    case 'tune_domain':
      return JSON.stringify({ domain: domain(passages(prompt)) })
    case 'tune_language':
      return JSON.stringify({ language: language(passages(prompt)) })
    case 'tune_persona':
      return JSON.stringify({
        persona: `You are an expert in ${topic}, mapping who and what the documents name and how they connect.`,
      })
    case 'tune_entity_types':
      return JSON.stringify({ entities: typedNames(passages(prompt)) })
    case 'tune_example':
      return example(prompt)
    case 'tune_rating':
      return JSON.stringify({
        rating_description: `The rating measures how much the community matters to ${topic}: 0 is incidental, 10 is central.`,
      })
    case 'tune_role':
      return JSON.stringify({ role: `You are an analyst of ${topic} who briefs decision makers.` })
  }
}
