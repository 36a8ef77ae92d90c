import { describe, expect, it } from 'vitest'
import { GraphragError } from '../../src/errors.js'
import { parseGraphReply } from '../../src/index/operations/extract-graph/parse.js'
import { formatPrompt } from '../../src/prompts/prompt-template.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { buildPrompts, type TunedValues } from '../../src/prompt-tune/templates.js'
import type { WorkedExample } from '../../src/prompt-tune/steps.js'
import { templateVariables, validatePrompts } from '../../src/prompt-tune/validate.js'

const count = (text: string) => getTokenizer('cl100k_base').count(text)

function example(i: number): WorkedExample {
  return {
    text: `Passage ${i}: the ship Kestrel ${i} left the port Harwick; a {curly} note.`,
    types: ['SHIP', 'PORT'],
    entities: [
      { name: `KESTREL ${i}`, type: 'SHIP', description: `Kestrel ${i} is a ship` },
      { name: 'HARWICK', type: 'PORT', description: 'Harwick is a port' },
    ],
    relationships: [{ source: `KESTREL ${i}`, target: 'HARWICK', description: 'The ship left the port', strength: 6 }],
  }
}

const values: TunedValues = {
  domain: 'coastal shipping {logs}',
  language: 'Norwegian',
  persona: 'You are a harbour master.',
  entityTypes: ['SHIP', 'PORT'],
  examples: [1, 2, 3, 4, 5].map(example),
  ratingDescription: 'The rating measures how much a group affects shipping safety.',
  reportRole: 'You are a maritime analyst.',
}

describe('tuned prompt templates', () => {
  it('keep the variables the pipeline fills, escape generated braces, and pass validation', () => {
    const prompts = buildPrompts(values, { maxTokens: 100_000, minExamples: 2, countTokens: count })
    expect(templateVariables(prompts.extractGraph)).toEqual(['input_text'])
    expect(templateVariables(prompts.summarizeDescriptions)).toEqual(['description_list', 'entity_name', 'max_length'])
    expect(templateVariables(prompts.communityReportGraph)).toEqual(['input_text', 'max_report_length'])
    expect(templateVariables(prompts.communityReportText)).toEqual(['input_text', 'max_report_length'])
    expect(() => validatePrompts(prompts, values.examples, ['SHIP', 'PORT'])).not.toThrow()
    const filled = formatPrompt(prompts.extractGraph, { input_text: 'The ship Tern docked.', entity_types: 'ignored' })
    expect(filled).toContain('coastal shipping {logs}')
    expect(filled).toContain('a {curly} note.')
    expect(filled).toContain('in Norwegian')
    expect(filled).toContain('Entity types: SHIP,PORT\nText:\nThe ship Tern docked.')
  })

  it('a reply in the tuned record format parses with our extraction parser', () => {
    const prompts = buildPrompts(values, { maxTokens: 100_000, minExamples: 2, countTokens: count })
    const filled = formatPrompt(prompts.extractGraph, { input_text: 'x' })
    const firstOutput = /# Example 1\n[\s\S]*?Output:\n([\s\S]*?)\n\n# /.exec(filled)![1]!
    const parsed = parseGraphReply(firstOutput)
    expect(parsed.entities.map((e) => `${e.title}/${e.type}`)).toEqual(['KESTREL 1/SHIP', 'HARWICK/PORT'])
    expect(parsed.relationships.map((r) => r.weight)).toEqual([6])
    expect(parsed.dropped).toEqual([])
  })

  it('adds worked examples up to the token budget, but at least the required minimum', () => {
    const all = buildPrompts(values, { maxTokens: 100_000, minExamples: 2, countTokens: count })
    expect(all.examplesUsed).toBe(5)
    const tight = buildPrompts(values, { maxTokens: 10, minExamples: 2, countTokens: count })
    expect(tight.examplesUsed).toBe(2)
    expect(tight.extractGraph).toContain('# Example 2\n')
    expect(tight.extractGraph).not.toContain('# Example 3\n')
    const budget = count(tight.extractGraph) + 40
    expect(buildPrompts(values, { maxTokens: budget, minExamples: 0, countTokens: count }).examplesUsed).toBeLessThan(5)
  })

  it('keeps {entity_types} when no types were discovered', () => {
    const prompts = buildPrompts(
      { ...values, entityTypes: undefined },
      { maxTokens: 100_000, minExamples: 2, countTokens: count },
    )
    expect(templateVariables(prompts.extractGraph)).toEqual(['entity_types', 'input_text'])
    expect(() => validatePrompts(prompts, values.examples, ['SHIP', 'PORT'])).not.toThrow()
  })

  it('rejects a prompt without {input_text} and an example that does not parse back', () => {
    const prompts = buildPrompts(values, { maxTokens: 100_000, minExamples: 2, countTokens: count })
    const broken = { ...prompts, extractGraph: prompts.extractGraph.replace('{input_text}', '') }
    expect(() => validatePrompts(broken, values.examples, ['SHIP'])).toThrow(GraphragError)
    const bad = {
      ...example(9),
      entities: [{ name: 'A<|>B', type: 'SHIP', description: 'split by a delimiter' }],
      relationships: [],
    }
    const withBad = buildPrompts(
      { ...values, examples: [bad] },
      { maxTokens: 100_000, minExamples: 1, countTokens: count },
    )
    expect(() => validatePrompts(withBad, [bad], ['SHIP'])).toThrow(/does not parse back/)
  })

  it('checks the examples with the reader graphrag index uses, which drops names the text does not hold', () => {
    // The output names KESTREL 7 and HARWICK, the text neither: at index time such records read as
    // copies of the prompt's example, so the tuned prompt is refused rather than written.
    const unnamed = { ...example(7), text: 'Passage 7: a ship left a port.' }
    const prompts = buildPrompts(
      { ...values, examples: [unnamed] },
      { maxTokens: 100_000, minExamples: 1, countTokens: count },
    )
    expect(() => validatePrompts(prompts, [unnamed], ['SHIP', 'PORT'])).toThrow(
      /does not parse back .*an echo of the prompt's examples/,
    )
  })
})
