/**
 * The judge's prompts (written for this project) and the JSON each reply must match. Each system
 * prompt starts with `# Eval judge: <task>`, a heading the test model recognises them by.
 */
import type { ChatMessage, JsonSchemaFormat } from '../llm/types.js'

/** The pairwise criteria, as BenchmarkQED and the GraphRAG paper compare answers. */
export const CRITERIA = {
  comprehensiveness: 'How much detail does the answer give to cover every aspect of the question?',
  diversity: 'How varied and rich are the perspectives and insights the answer offers on the question?',
  empowerment: 'How well does the answer help the reader understand the topic and make informed judgements?',
  relevance: 'How directly does the answer address the question, without digressing?',
} as const

export type Criterion = keyof typeof CRITERIA

const PAIRWISE_SYSTEM = `# Eval judge: pairwise
You compare two answers to the same question on one criterion. Read both answers fully; do not favour
an answer for its position or its length alone. If neither is better on the criterion, say "tie".
Reply with JSON: {"reasoning": "<one or two sentences>", "winner": "1" | "2" | "tie"}.`

export function pairwiseMessages(question: string, criterion: Criterion, first: string, second: string): ChatMessage[] {
  return [
    { role: 'system', content: PAIRWISE_SYSTEM },
    {
      role: 'user',
      content: `Criterion: ${criterion}: ${CRITERIA[criterion]}\n\nQuestion: ${question}\n\n--- Answer 1 ---\n${first}\n\n--- Answer 2 ---\n${second}`,
    },
  ]
}

export const PAIRWISE_FORMAT: JsonSchemaFormat = {
  type: 'json_schema',
  name: 'pairwise_verdict',
  schema: {
    type: 'object',
    properties: { reasoning: { type: 'string' }, winner: { type: 'string', enum: ['1', '2', 'tie'] } },
    required: ['reasoning', 'winner'],
    additionalProperties: false,
  },
}

const CORRECTNESS_SYSTEM = `# Eval judge: correctness
You grade an answer against a reference answer written by a person who knows the source documents.
correctness: 0-10, how far the answer's claims agree with the reference (10 = nothing contradicts it,
0 = it contradicts the reference or answers something else). completeness: 0-10, how much of the
reference's content the answer contains (10 = all of it). Extra correct detail is not penalised.
Reply with JSON: {"reasoning": "<one or two sentences>", "correctness": <0-10>, "completeness": <0-10>}.`

export function correctnessMessages(question: string, reference: string, answer: string): ChatMessage[] {
  return [
    { role: 'system', content: CORRECTNESS_SYSTEM },
    {
      role: 'user',
      content: `Question: ${question}\n\n--- Reference answer ---\n${reference}\n\n--- Answer ---\n${answer}`,
    },
  ]
}

const SCORE = { type: 'integer', minimum: 0, maximum: 10 }

export const CORRECTNESS_FORMAT: JsonSchemaFormat = {
  type: 'json_schema',
  name: 'correctness_grade',
  schema: {
    type: 'object',
    properties: { reasoning: { type: 'string' }, correctness: SCORE, completeness: SCORE },
    required: ['reasoning', 'correctness', 'completeness'],
    additionalProperties: false,
  },
}

const ASSERTION_SYSTEM = `# Eval judge: assertion
You decide whether an answer states (or clearly implies) one assertion. Judge only the answer's text,
not what you know yourself. Reply with JSON: {"reasoning": "<one sentence>", "holds": true | false}.`

export function assertionMessages(question: string, answer: string, assertion: string): ChatMessage[] {
  return [
    { role: 'system', content: ASSERTION_SYSTEM },
    { role: 'user', content: `Question: ${question}\n\nAssertion: ${assertion}\n\n--- Answer ---\n${answer}` },
  ]
}

export const ASSERTION_FORMAT: JsonSchemaFormat = {
  type: 'json_schema',
  name: 'assertion_verdict',
  schema: {
    type: 'object',
    properties: { reasoning: { type: 'string' }, holds: { type: 'boolean' } },
    required: ['reasoning', 'holds'],
    additionalProperties: false,
  },
}

const GENERATE_SYSTEM = `# Eval generate: questions
You write one question for testing a question-answering system over a collection of documents.
For a "local" text (a passage of one document), ask a specific factual question that the passage
alone answers. For a "global" text (a summary of a group of related documents), ask a broad question
about its themes that needs the whole group to answer. Give the answer, and a quote: words copied
exactly from the text that support the answer.
Reply with JSON: {"question": "...", "answer": "...", "quote": "..."}.`

export function generateMessages(scope: 'local' | 'global', text: string): ChatMessage[] {
  return [
    { role: 'system', content: GENERATE_SYSTEM },
    { role: 'user', content: `Scope: ${scope}\n\n--- Text ---\n${text}` },
  ]
}

export const GENERATE_FORMAT: JsonSchemaFormat = {
  type: 'json_schema',
  name: 'generated_question',
  schema: {
    type: 'object',
    properties: { question: { type: 'string' }, answer: { type: 'string' }, quote: { type: 'string' } },
    required: ['question', 'answer', 'quote'],
    additionalProperties: false,
  },
}
