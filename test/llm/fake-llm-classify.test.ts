import { describe, expect, it } from 'vitest'
import { formatPrompt, loadPrompt } from '../../src/prompts/prompt-template.js'
import * as Q from '../../src/prompt-tune/questions.js'
import { HYDE_PROMPT, PRIMER_PROMPT, RATE_REPORT_PROMPT } from '../../src/query/search/prompts.js'
import { renderBatch } from '../../src/index/operations/chunk-graph/llm-edges.js'
import { classifyMessages, type PromptKind } from '../support/fake-llm/index.js'
import { chunkGraphUnits } from '../support/fake-llm/responders.js'

const DUMMY = {
  entity_types: 'ORGANIZATION,PERSON,GEO',
  input_text: 'Anna Lind met Boris Kell in Tromsø.',
  entity_specs: 'organization',
  claim_description: 'wrongdoing',
  entity_name: 'ANNA LIND',
  description_list: '["Anna is a sailor", "Anna lives in Tromsø"]',
  max_length: 500,
  max_report_length: 1500,
  response_type: 'multiple paragraphs',
  context_data: '-----Entities-----\nid|entity|description\n1|ANNA LIND|a sailor',
  report_data: '----Analyst 1----\nImportance Score: 80\nA point',
  global_query: 'What happens?',
  followups: 5,
  question_count: 3,
}

const user = (content: string) => ({ role: 'user', content })
const system = (content: string) => ({ role: 'system', content })
const prompt = (name: string) => formatPrompt(loadPrompt(null, name, 'test'), DUMMY)

describe('prompt classification of our prompt files', () => {
  const single: Array<[string, PromptKind]> = [
    ['extract_graph.txt', 'extract_graph'],
    ['extract_claims.txt', 'extract_claims'],
    ['summarize_descriptions.txt', 'summarize_descriptions'],
    ['community_report_graph.txt', 'community_report'],
    ['community_report_text.txt', 'community_report_text'],
  ]
  it.each(single)('%s → %s (single user message)', (file, kind) => {
    expect(classifyMessages([user(prompt(file))])).toBe(kind)
  })

  const query: Array<[string, PromptKind]> = [
    ['global_search_map_system_prompt.txt', 'global_map'],
    ['global_search_reduce_system_prompt.txt', 'global_reduce'],
    ['local_search_system_prompt.txt', 'local_search'],
    ['basic_search_system_prompt.txt', 'basic_search'],
    // Graph search cites Sources as basic search does, so the same answers fit.
    ['graph_search_system_prompt.txt', 'basic_search'],
    ['drift_search_system_prompt.txt', 'drift_local'],
    ['drift_reduce_prompt.txt', 'drift_reduce'],
  ]
  it.each(query)('%s → %s (system template + user query)', (file, kind) => {
    expect(classifyMessages([system(prompt(file)), user('What happens to Anna?')])).toBe(kind)
  })

  it('chunk_graph_edges.txt with a batch of units → chunk_graph, and the batch labels are read back', () => {
    const units = [3, 4].map((n) => ({
      id: `u${n}`,
      human_readable_id: n,
      document_id: 'd',
      text: `Text of unit ${n}.`,
      entity_ids: [],
    }))
    const text = formatPrompt(loadPrompt(null, 'chunk_graph_edges.txt', 'test'), { input_text: renderBatch(units) })
    expect(classifyMessages([user(text)])).toBe('chunk_graph')
    expect(chunkGraphUnits([user(text)])).toEqual(['3', '4'])
    expect(classifyMessages([user(prompt('extract_graph.txt'))])).not.toBe('chunk_graph')
  })

  it('global reduce with the general-knowledge addendum stays global_reduce', () => {
    const text = `${prompt('global_search_reduce_system_prompt.txt')}\n${prompt('global_search_knowledge_system_prompt.txt')}`
    expect(classifyMessages([system(text), user('q')])).toBe('global_reduce')
  })

  it.each([
    ['extract_graph.txt', 'internal/extract_graph_continue.txt', 'internal/extract_graph_loop.txt', 'extract_graph'],
    [
      'extract_claims.txt',
      'internal/extract_claims_continue.txt',
      'internal/extract_claims_loop.txt',
      'extract_claims',
    ],
  ] as const)('gleaning history of %s → continue and loop', (first, cont, loop, family) => {
    const history = [user(prompt(first)), { role: 'assistant', content: '<|COMPLETE|>' }]
    expect(classifyMessages([...history, user(prompt(cont))])).toBe(`${family}_continue`)
    expect(
      classifyMessages([
        ...history,
        user(prompt(cont)),
        { role: 'assistant', content: '<|COMPLETE|>' },
        user(prompt(loop)),
      ]),
    ).toBe(`${family}_loop`)
    // The follow-up prompts are recognisable on their own too.
    expect(classifyMessages([user(prompt(cont))])).toBe(`${family}_continue`)
    expect(classifyMessages([user(prompt(loop))])).toBe(`${family}_loop`)
  })

  it('recognises the built-in DRIFT primer, HyDE and relevance-rating prompts of src/query', () => {
    const report = '# Scrooge and Marley\n\nThe firm of Scrooge and Marley.\n\n## Finding\n\nText [Data: Entities (1)]'
    expect(
      classifyMessages([user(formatPrompt(PRIMER_PROMPT, { query: 'Who is Scrooge?', community_reports: report }))]),
    ).toBe('drift_primer')
    expect(
      classifyMessages([system(formatPrompt(RATE_REPORT_PROMPT, { description: report })), user('Who is Scrooge?')]),
    ).toBe('dynamic_rating')
    expect(classifyMessages([user(formatPrompt(HYDE_PROMPT, { query: 'Who is Scrooge?', template: report }))])).toBe(
      'unknown',
    )
  })

  it('recognises the preflight and structured query prompts', () => {
    expect(classifyMessages([user('This is an LLM connectivity test. Say Hello World')])).toBe('preflight')
    expect(
      classifyMessages([user('Answer as JSON with "intermediate_answer", "score" and "follow_up_queries". {query}')]),
    ).toBe('drift_primer')
    expect(
      classifyMessages([system('Rate the relevance 0-5. Reply as JSON {"reason": "...", "rating": 3}'), user('q')]),
    ).toBe('dynamic_rating')
    expect(classifyMessages([system(prompt('question_gen_system_prompt.txt')), user('q')])).toBe('unknown')
  })
})

describe('prompt classification of the prompt-tune questions', () => {
  it('recognises each step, even when the quoted passage looks like another prompt', () => {
    const passage = '("entity"<|>A<|>B<|>c)\n("relationship"<|>A<|>B<|>d<|>5) "findings" rating'
    const values = {
      passages: passage,
      text: passage,
      domain: 'd',
      persona: 'p',
      language: 'English',
      entity_types: 'SHIP',
    }
    const cases: Array<[string, PromptKind]> = [
      [Q.DOMAIN_QUESTION, 'tune_domain'],
      [Q.LANGUAGE_QUESTION, 'tune_language'],
      [Q.PERSONA_QUESTION, 'tune_persona'],
      [Q.OPEN_EXTRACTION_QUESTION, 'tune_entity_types'],
      [Q.EXAMPLE_QUESTION, 'tune_example'],
      [Q.RATING_QUESTION, 'tune_rating'],
      [Q.ROLE_QUESTION, 'tune_role'],
    ]
    for (const [template, kind] of cases)
      expect(classifyMessages([user(formatPrompt(template, values))]), kind).toBe(kind)
  })
})
