// The fake model tells lazy search's four prompts apart (and from every other prompt), so the request
// log counts relevance tests and the built-in replies fit each step.
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUILTIN_PROMPTS_DIR, formatPrompt, loadPrompt } from '../../../src/prompts/prompt-template.js'
import {
  ANSWER_PROMPT,
  CLAIMS_PROMPT,
  passageBlock,
  RELEVANCE_PROMPT,
  SUBQUERY_PROMPT,
} from '../../../src/query/lazy/prompts.js'
import { classifyMessages } from '../../support/fake-llm/index.js'
import { lazyPassages } from '../../support/fake-llm/lazy.js'

const system = (content: string) => ({ role: 'system', content })
const user = (content: string) => ({ role: 'user', content })
const passages = [
  { label: '3', text: 'The lifeboat went out.\nIt came back at dawn.' },
  { label: '12', text: 'The council met.' },
]

describe('lazy search prompts in the fake model', () => {
  it('classifies each prompt as its own kind', () => {
    const block = passageBlock('Who rowed?', passages)
    expect(classifyMessages([system(formatPrompt(SUBQUERY_PROMPT, { count: 3 })), user('Who rowed?')])).toBe(
      'lazy_subqueries',
    )
    expect(classifyMessages([system(RELEVANCE_PROMPT), user(block)])).toBe('lazy_relevance')
    expect(classifyMessages([system(formatPrompt(CLAIMS_PROMPT, { limit: 6 })), user(block)])).toBe('lazy_claims')
    const answer = formatPrompt(ANSWER_PROMPT, { claims: '- A claim [Data: Sources (3)]', response_type: 'x' })
    expect(classifyMessages([system(answer), user('Who rowed?')])).toBe('lazy_answer')
  })

  it('classifies none of the prompt files as a lazy kind', () => {
    for (const file of readdirSync(BUILTIN_PROMPTS_DIR).filter((f) => f.endsWith('.txt'))) {
      const text = loadPrompt(null, file, 'test')
      expect(classifyMessages([system(text), user('Who?')]), file).not.toMatch(/^lazy_/)
    }
  })

  it('reads the question and every passage, with its lines, back from a call', () => {
    expect(lazyPassages(passageBlock('Who rowed?', passages, 'Concepts: LIFEBOAT'))).toEqual({
      question: 'Who rowed?',
      passages,
    })
  })
})
