/**
 * Offline answer: with no completion model configured, local and basic search print the ranked
 * context (what an LLM would have read) as readable markdown instead of a generated answer.
 */
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import type { ContextRecord, ContextRecords } from '../context/table-format.js'
import { formatRelated } from './graph-format.js'
import type { SearchServices } from '../services.js'
import type { QuestionInput, SearchContext, SearchRun } from './types.js'

function offlineAnswer(records: ContextRecords, settingKey: string): string {
  const parts = [
    `_No completion model is configured (${settingKey} is null), so this is the ranked context an answer would be based on._`,
  ]
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
  if (parts.length === 1) parts.push('Nothing in the index matched the question.')
  return `${parts.join('\n\n')}\n`
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
  if (chat === undefined) {
    yield offlineAnswer(context.records, prompt.modelKey)
    return context
  }
  const system = formatPrompt(loadPrompt(prompt.path, prompt.builtin, prompt.key), {
    context_data: context.text,
    response_type: input.responseType,
  })
  yield* chat.stream('response', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: input.query },
    ],
  })
  return context
}
