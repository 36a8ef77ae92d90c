/**
 * What prompt-tune asks the chat model, one question per step, each answered as a JSON object
 * whose shape the LLM layer checks (an answer that does not fit is retried there). Every question
 * opens with a `# Prompt tuning:` heading naming its step, which also makes it recognisable in logs.
 */
import type { JsonSchemaFormat } from '../llm/types.js'

const passages = '# Passages\n{passages}'

export const DOMAIN_QUESTION = `# Prompt tuning: subject domain
The passages below are samples from one document collection. Name the subject domain of the collection in a short phrase of at most eight words, specific enough to tell an expert what the documents are about (for example "coastal ferry operations and funding" or "clinical trials of heart medication").
Reply with a JSON object only: {{"domain": "<phrase>"}}

${passages}`

export const LANGUAGE_QUESTION = `# Prompt tuning: language
The passages below are samples from one document collection. Name the language most of the text is written in, by its English name (for example "English", "French", "Brazilian Portuguese").
Reply with a JSON object only: {{"language": "<name>"}}

${passages}`

export const PERSONA_QUESTION = `# Prompt tuning: persona
A knowledge graph will be built from documents about: {domain}.
Describe, in two or three sentences addressed to the reader ("You are ..."), the expert best placed to read such documents: what they know, and what they look for when they map the people, organisations, places, objects and ideas of the documents and how these are connected.
Reply with a JSON object only: {{"persona": "<text>"}}`

export const OPEN_EXTRACTION_QUESTION = `# Prompt tuning: entity types of a passage
{persona}
List the entities the passage below mentions: people, organisations, places, objects, substances, works, events, concepts, whatever matters in this domain ({domain}).
For each entity give its name as the passage writes it, and its type: a short general category for the kind of thing it is, one or two words in English, singular (for example person, organization, vessel, enzyme, court ruling). Prefer categories that many entities of this domain would share over labels that fit only this one.
Reply with a JSON object only: {{"entities": [{{"name": "<name>", "type": "<type>"}}]}}

# Passage
{text}`

export const EXAMPLE_QUESTION = `# Prompt tuning: worked extraction example
{persona}
From the passage below, extract every entity whose type is one of: {entity_types}; then every pair of those entities that the passage clearly connects.
- name: the entity's name in capital letters, in its fullest form in the passage.
- type: exactly one of the types listed above.
- description (entities): one or two sentences in {language} on what the passage says about the entity.
- description (relationships): one sentence in {language} on how the two are connected.
- strength: a whole number from 1 (loose link) to 10 (very strong link).
Reply with a JSON object only: {{"entities": [{{"name": "", "type": "", "description": ""}}], "relationships": [{{"source": "", "target": "", "description": "", "strength": 5}}]}}

# Passage
{text}`

export const RATING_QUESTION = `# Prompt tuning: impact rating
{persona}
Analysts will write reports on communities of closely related entities found in documents about {domain}, and rate each community from 0 to 10. Write one or two sentences, in English, that define the rating for this domain: what makes a community matter here, and what a 0 and a 10 stand for. Start with "The rating measures".
Reply with a JSON object only: {{"rating_description": "<text>"}}

${passages}`

export const ROLE_QUESTION = `# Prompt tuning: report writer role
{persona}
Analysts will write briefings on communities of closely related entities found in documents about {domain}. Describe the analyst who writes them in one to three sentences addressed to them ("You are ..."): their expertise and what their readers need from the briefing.
Reply with a JSON object only: {{"role": "<text>"}}

${passages}`

const text = { type: 'string' }

function objectSchema(name: string, properties: Record<string, unknown>): JsonSchemaFormat {
  return {
    type: 'json_schema',
    name,
    schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  }
}

export const DOMAIN_FORMAT = objectSchema('prompt_tune_domain', { domain: text })
export const LANGUAGE_FORMAT = objectSchema('prompt_tune_language', { language: text })
export const PERSONA_FORMAT = objectSchema('prompt_tune_persona', { persona: text })
export const RATING_FORMAT = objectSchema('prompt_tune_rating', { rating_description: text })
export const ROLE_FORMAT = objectSchema('prompt_tune_role', { role: text })

const entity = (fields: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(fields.map((f) => [f, text])),
  required: fields,
  additionalProperties: false,
})

export const OPEN_EXTRACTION_FORMAT = objectSchema('prompt_tune_entity_types', {
  entities: { type: 'array', items: entity(['name', 'type']) },
})

export const EXAMPLE_FORMAT = objectSchema('prompt_tune_example', {
  entities: { type: 'array', items: entity(['name', 'type', 'description']) },
  relationships: {
    type: 'array',
    items: {
      type: 'object',
      properties: { source: text, target: text, description: text, strength: { type: 'number' } },
      required: ['source', 'target', 'description', 'strength'],
      additionalProperties: false,
    },
  },
})
