/**
 * The names a question asks about: from the chat model (a JSON list) or, offline or when the
 * model's reply is unusable, from the noun-phrase extractor of the fast index method.
 */
import type { Settings } from '../../config/index.js'
import { parseTolerant } from '../../llm/json.js'
import type { NounPhraseExtractor } from '../../text/noun-phrases/extractor.js'
import type { MeteredChat } from '../usage.js'
import { QUESTION_ENTITIES_PROMPT } from './prompts.js'

export interface QuestionEntities {
  names: string[]
  source: 'model' | 'noun_phrases'
  /** Why the model's list was not used, when it was asked and failed. */
  failure?: string
}

let extractor: NounPhraseExtractor | undefined
let extractorKey: string | undefined

/**
 * Noun phrases of the question, filtered as the fast method filters them (extract_graph_nlp.text_analyzer).
 * The extractor (wink-nlp and its English model, ~0.5 s to load) is imported only when needed, so other searches start fast.
 */
async function nounPhraseEntities(
  question: string,
  analyzer: Settings['extract_graph_nlp']['text_analyzer'],
): Promise<string[]> {
  const key = JSON.stringify(analyzer)
  if (extractor === undefined || extractorKey !== key) {
    const { createNounPhraseExtractor } = await import('../../text/noun-phrases/extractor.js')
    extractor = createNounPhraseExtractor(analyzer)
    extractorKey = key
  }
  return extractor.extract(question)
}

/** A list of strings from the reply: a bare JSON list, or the first list-valued key of an object. */
function parseEntityList(text: string): string[] | undefined {
  const value = parseTolerant(text)
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.values(value).find(Array.isArray)
      : undefined
  if (list === undefined) return undefined
  return [
    ...new Set(
      list
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.trim())
        .filter((v) => v !== ''),
    ),
  ]
}

export async function questionEntities(
  question: string,
  chat: MeteredChat | undefined,
  mode: Settings['hybrid_search']['query_entities'],
  analyzer: Settings['extract_graph_nlp']['text_analyzer'],
): Promise<QuestionEntities> {
  const offline = async (failure?: string): Promise<QuestionEntities> => ({
    names: await nounPhraseEntities(question, analyzer),
    source: 'noun_phrases',
    ...(failure ? { failure } : {}),
  })
  if (chat === undefined || mode === 'noun_phrases') return offline()
  let content: string
  try {
    const result = await chat.complete('entities', {
      messages: [
        { role: 'system', content: QUESTION_ENTITIES_PROMPT },
        { role: 'user', content: question },
      ],
    })
    content = result.content
  } catch (error) {
    return offline(`the entity call failed (${error instanceof Error ? error.message : String(error)})`)
  }
  const names = parseEntityList(content)
  return names === undefined
    ? offline(`the model's entity reply is not a JSON list: ${content.slice(0, 80)}`)
    : { names, source: 'model' }
}
