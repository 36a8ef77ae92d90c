/** The questions of each prompt-tune step and how their answers become values. */
import { cleanName } from '../index/operations/extract-graph/reply-text.js'
import {
  askOnce,
  askPerChunk,
  oneLine,
  shortText,
  type AskServices,
  type Checked,
  type Question,
  type Unusable,
} from './ask.js'
import { normalizeType, type TypedMention } from '../text/entity-types.js'
import type { JsonSchemaFormat } from '../llm/types.js'
import * as Q from './questions.js'
import type { SampleChunk } from './sample.js'

export interface WorkedExample {
  text: string
  types: string[]
  entities: Array<{ name: string; type: string; description: string }>
  relationships: Array<{ source: string; target: string; description: string; strength: number }>
}

export interface Context {
  passages: string
  domain: string
  persona: string
}

function domainQuestion(passages: string): Question<string> {
  return {
    step: 'domain',
    template: Q.DOMAIN_QUESTION,
    values: { passages },
    format: Q.DOMAIN_FORMAT,
    check: (j) => shortText(j, 'domain', 120),
  }
}

function languageQuestion(passages: string): Question<string> {
  const check = (j: Record<string, unknown>): Checked<string> => {
    const checked = shortText(j, 'language', 40)
    if (checked.ok && !/^[\p{L} ()'-]+$/u.test(checked.value))
      return { ok: false, problem: `"${checked.value}" is not a language name` }
    return checked
  }
  return { step: 'language', template: Q.LANGUAGE_QUESTION, values: { passages }, format: Q.LANGUAGE_FORMAT, check }
}

export const askDomain = (passages: string, s: AskServices) =>
  askOnce(domainQuestion(passages), s, 'pass --domain to give it')
export const askLanguage = (passages: string, s: AskServices) =>
  askOnce(languageQuestion(passages), s, 'pass --language to give it')

/** A question whose answer is one text field of at most `max` characters. */
function textQuestion(
  step: string,
  template: string,
  values: Record<string, string>,
  format: JsonSchemaFormat,
  max: number,
): Question<string> {
  const key = Object.keys((format.schema as { properties: object }).properties)[0]!
  return { step, template, values, format, check: (j) => shortText(j, key, max) }
}

const STRONGER = 'try a stronger chat model'

export const askPersona = (domain: string, s: AskServices) =>
  askOnce(textQuestion('persona', Q.PERSONA_QUESTION, { domain }, Q.PERSONA_FORMAT, 2000), s, STRONGER)

export const askRatingDescription = (c: Context, s: AskServices) =>
  askOnce(textQuestion('rating description', Q.RATING_QUESTION, { ...c }, Q.RATING_FORMAT, 1000), s, STRONGER)

export const askReportRole = (c: Context, s: AskServices) =>
  askOnce(textQuestion('report role', Q.ROLE_QUESTION, { ...c }, Q.ROLE_FORMAT, 2000), s, STRONGER)

/** Open extraction: every entity of every sample chunk with the type the model gives it. */
export async function discoverMentions(
  chunks: readonly SampleChunk[],
  c: Pick<Context, 'domain' | 'persona'>,
  s: AskServices & { concurrency: number; onDone?: () => void },
): Promise<{ mentions: TypedMention[]; unusable: Unusable[] }> {
  const questions = chunks.map(
    (chunk): Question<TypedMention[]> => ({
      step: 'entity types',
      template: Q.OPEN_EXTRACTION_QUESTION,
      values: { ...c, text: chunk.text },
      format: Q.OPEN_EXTRACTION_FORMAT,
      check: (j) => ({ ok: true, value: mentionsOf(j, chunk.documentId) }),
    }),
  )
  const { values, unusable } = await askPerChunk(questions, s)
  return { mentions: values.flatMap((v) => v ?? []), unusable }
}

function mentionsOf(json: Record<string, unknown>, documentId: string): TypedMention[] {
  const entities = Array.isArray(json.entities) ? (json.entities as Array<Record<string, unknown>>) : []
  return entities
    .map((e) => ({ documentId, name: oneLine(e.name), type: oneLine(e.type) }))
    .filter((m) => m.name !== '' && normalizeType(m.type) !== '')
}

/** A worked example per sample chunk, restricted to `types`; chunks without such an entity are unusable. */
export async function generateExamples(
  chunks: readonly SampleChunk[],
  c: Pick<Context, 'persona'> & { types: readonly string[]; language: string },
  s: AskServices & { concurrency: number; onDone?: () => void },
): Promise<{ examples: WorkedExample[]; unusable: Unusable[] }> {
  const questions = chunks.map(
    (chunk): Question<WorkedExample> => ({
      step: 'examples',
      template: Q.EXAMPLE_QUESTION,
      values: { persona: c.persona, language: c.language, entity_types: c.types.join(', '), text: chunk.text },
      format: Q.EXAMPLE_FORMAT,
      check: (j) => exampleOf(j, chunk.text, c.types),
    }),
  )
  const { values, unusable } = await askPerChunk(questions, s)
  return { examples: values.flatMap((v) => (v === undefined ? [] : [v])), unusable }
}

/** Whether the text names the entity (case aside), as the example's output claims. */
function named(text: string, name: string): boolean {
  return text.toUpperCase().includes(name)
}

/** Field text safe inside a record: one line, without the record delimiters. */
function field(value: unknown): string {
  return oneLine(value)
    .replace(/<\|>|<\|COMPLETE\|>|#{2,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function exampleOf(json: Record<string, unknown>, text: string, types: readonly string[]): Checked<WorkedExample> {
  const allowed = new Set(types.map(normalizeType))
  let unnamed = 0
  const entities: WorkedExample['entities'] = []
  for (const e of (json.entities as Array<Record<string, unknown>> | undefined) ?? []) {
    const name = cleanName(field(e.name))
    const type = normalizeType(oneLine(e.type))
    // A name the text does not contain would teach the model to invent names, and graphrag index
    // drops such a name as a copy of the prompt's examples (read-reply.ts).
    if (name === '' || !allowed.has(type) || entities.some((x) => x.name === name)) continue
    if (!named(text, name)) {
      unnamed++
      continue
    }
    entities.push({ name, type, description: field(e.description) || `${name} is mentioned in the text` })
  }
  if (entities.length === 0)
    return {
      ok: false,
      problem: unnamed > 0 ? 'no entity of the listed types that the text names' : 'no entity of the listed types',
    }
  const names = new Set(entities.map((e) => e.name))
  const relationships: WorkedExample['relationships'] = []
  for (const r of (json.relationships as Array<Record<string, unknown>> | undefined) ?? []) {
    const source = cleanName(field(r.source))
    const target = cleanName(field(r.target))
    if (!names.has(source) || !names.has(target) || source === target) continue
    const strength = Math.min(10, Math.max(1, Math.round(typeof r.strength === 'number' ? r.strength : 5)))
    relationships.push({
      source,
      target,
      description: field(r.description) || `${source} is connected to ${target}`,
      strength,
    })
  }
  return { ok: true, value: { text, types: [...allowed], entities, relationships } }
}
