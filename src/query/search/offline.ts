/**
 * Offline answer: with no completion model configured, local, basic and graph search print a short
 * extractive answer (the sentences of the ranked sources that best match the question, each with
 * its source), then the ranked context (what an LLM would have read) under its own heading.
 */
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import type { ContextRecord, ContextRecords } from '../context/table-format.js'
import { formatRelated } from './graph-format.js'
import type { SearchServices } from '../services.js'
import type { QuestionInput, SearchContext, SearchRun } from './types.js'

function offlineAnswer(records: ContextRecords, settingKey: string, question: string): string {
  const best = bestPassages(question, records.sources ?? [])
  const parts = [
    `_No completion model is configured (${settingKey} is null), so here ${best.length > 0 ? 'are the passages that best match the question, then ' : 'is '}the ranked context an answer would be based on._`,
  ]
  if (best.length > 0) parts.push(`# Best passages\n\n${passageList(best, (id) => `(Source ${id})`)}`)
  parts.push('# Context')
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) parts.push(`## ${title}\n\n${lines.join('\n')}`)
  }
  section(
    'Entities',
    (records.entities ?? []).map((e, i) => `${i + 1}. **${e.entity}** (id ${e.id})${described(e.description)}`),
  )
  section(
    'Relationships',
    (records.relationships ?? []).map((r) => `- ${r.source} → ${r.target} (id ${r.id})${described(r.description)}`),
  )
  section(
    'Claims',
    (records.claims ?? []).map((c) => `- ${c.entity} [${c.status}] (id ${c.id})${described(c.description)}`),
  )
  section(
    'Reports',
    (records.reports ?? []).map((r) => `- ${r.title} (id ${r.id})`),
  )
  section(
    'Sources',
    (records.sources ?? []).map((s) => `### Source ${s.id}\n\n${String(s.text).trim()}\n${reachedNote(s)}`),
  )
  if (parts.length === 2 + (best.length > 0 ? 1 : 0)) parts.push('Nothing in the index matched the question.')
  return `${parts.join('\n\n')}\n`
}

/** Words too common to say what a question is about. */
const STOPWORDS = new Set(
  'the and for are was were what who whom whose which when where why how did does do has have had with from that this these those into about there their they them then than his her its our your you not but can could would should will any all been being also over under after before between'.split(
    ' ',
  ),
)

const PASSAGES_SHOWN = 3
const SENTENCE_MAX = 300

function terms(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOPWORDS.has(w)))
}

/** A numbered list of passages, each cited as `cite(source id)`. */
export function passageList(
  passages: ReadonlyArray<{ sentence: string; source: string }>,
  cite: (id: string) => string,
) {
  return passages.map((p, i) => `${i + 1}. "${p.sentence}" ${cite(p.source)}`).join('\n')
}

/**
 * The sentences of the ranked sources that share the most words with the question (earlier sources
 * win ties: they rank higher), at most one per source; none when no sentence shares a word.
 */
export function bestPassages(
  question: string,
  sources: readonly ContextRecord[],
): Array<{ sentence: string; source: string }> {
  const wanted = terms(question)
  const candidates = sources.flatMap((s, rank) => {
    let best: { sentence: string; score: number } | undefined
    for (const raw of String(s.text ?? '').split(/(?<=[.!?])\s+|\n{2,}/)) {
      const sentence = raw.replace(/\s+/g, ' ').trim()
      if (sentence.length < 20) continue
      const words = terms(sentence)
      const score = [...wanted].filter((w) => words.has(w)).length
      if (score > 0 && (best === undefined || score > best.score)) best = { sentence, score }
    }
    return best === undefined ? [] : [{ ...best, rank, source: String(s.id) }]
  })
  return candidates
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .slice(0, PASSAGES_SHOWN)
    .map((c) => ({
      sentence: c.sentence.length <= SENTENCE_MAX ? c.sentence : `${c.sentence.slice(0, SENTENCE_MAX - 1)}…`,
      source: c.source,
    }))
}

/** Graph search: how a source was reached through the chunk graph ('' for the other methods and seeds). */
function reachedNote(s: ContextRecord): string {
  if (s.relation === undefined || s.relation === '') return ''
  return `\n${formatRelated(s.link ?? '', s.relation, s.direction ?? '', s.reached_from ?? '')}\n`
}

/** `: description` on one line (multi-paragraph text would break the list item); '' when empty. */
function described(value: string | number | undefined): string {
  const text = String(value ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
  return text === '' ? '' : `: ${text}`
}

/** Where a context-based search finds its prompt, for `answerFromContext`. */
export interface AnswerPrompt {
  /** The configured prompt file, or null for the built-in one. */
  path: string | null
  builtin: string
  /** The settings key of the prompt (`local_search.prompt`). */
  key: string
  /** The settings key of the chat model, named in the offline notice. */
  modelKey: string
}

/** The prompt of basic, graph or local search: the file its section's `prompt` names, else the built-in one. */
export function searchPrompt(method: 'basic' | 'graph' | 'local', path: string | null): AnswerPrompt {
  return {
    path,
    builtin: `${method}_search_system_prompt.txt`,
    key: `${method}_search.prompt`,
    modelKey: `${method}_search.completion_model_id`,
  }
}

/**
 * The context of a passage search (basic, graph): the conversation history block, when there is one,
 * before the passages table, in the records as in the text.
 */
export function passagesContext(
  history: { records: ContextRecord[]; text: string },
  sources: ContextRecord[],
  table: string,
): SearchContext {
  const records: ContextRecords = {}
  if (history.records.length > 0) records['conversation history'] = history.records
  records.sources = sources
  return { records, text: history.text === '' ? table : `${history.text}\n${table}` }
}

/**
 * The last step of local and basic search: the ranked context itself when no chat model is
 * configured, else the system prompt filled with the context and the answer streamed.
 */
export async function* answerFromContext(
  context: SearchContext,
  prompt: AnswerPrompt,
  input: QuestionInput,
  chat: SearchServices['chat'],
): SearchRun {
  if (input.only === 'context') {
    yield context.text
    return context
  }
  if (input.only === 'prompt') {
    yield promptText(systemPrompt(prompt, context, input), input.query)
    return context
  }
  if (chat === undefined) {
    yield offlineAnswer(context.records, prompt.modelKey, input.query)
    return context
  }
  yield* chat.stream('response', {
    messages: [
      { role: 'system', content: systemPrompt(prompt, context, input) },
      { role: 'user', content: input.query },
    ],
  })
  return context
}

function systemPrompt(prompt: AnswerPrompt, context: SearchContext, input: QuestionInput): string {
  return formatPrompt(loadPrompt(prompt.path, prompt.builtin, prompt.key), {
    context_data: context.text,
    response_type: input.responseType,
  })
}

/** The messages a model would be sent, each under its role. */
function promptText(system: string, question: string): string {
  return `---system---\n${system}\n\n---user---\n${question}\n`
}
