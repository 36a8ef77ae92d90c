import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { summarizeDescriptions } from '../../../src/index/operations/summarize-descriptions.js'
import { loadPrompt } from '../../../src/prompts/prompt-template.js'
import type { ChatModel } from '../../../src/llm/types.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

/** Replies with the description list it was given, so tests can see each batch. */
const echoList: Responder = ({ kind, messages }) => {
  if (kind !== 'summarize_descriptions') return undefined
  const prompt = messages[0]!.content
  return `SUMMARY OF ${/# Descriptions to merge\n(.*)\n/.exec(prompt)?.[1] ?? '?'}`
}

const entity = (title: string, description: string[]) => ({
  title,
  type: 'PERSON',
  description,
  text_unit_ids: ['u1'],
  frequency: 1,
})
const relationship = (source: string, target: string, description: string[]) => ({
  source,
  target,
  description,
  text_unit_ids: ['u1'],
  weight: 3,
})

describe('summarizeDescriptions through the fake server', () => {
  let llm: FakeLlm
  let chat: ChatModel
  const prompt = loadPrompt(null, 'summarize_descriptions.txt', 'summarize_descriptions.prompt')
  const options = { prompt, maxLength: 120, maxInputTokens: 4000, concurrency: 4 }

  beforeAll(async () => {
    llm = await startFakeLlm({ responders: [echoList] })
    const t = await createTestContext({ settingsYaml: fakeModelSettingsYaml(llm.baseUrl) })
    const registry = createModelRegistry(t.settings, { cache: t.ctx.cache, log: SILENT_LOGGER })
    chat = registry.forWorkflow('extract_graph').chat('default_completion_model', {
      keyPath: 'summarize_descriptions.completion_model_id',
      cachePartition: 'summarize_descriptions',
    })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('calls the model only for two or more distinct descriptions, with sorted JSON input and max_length', async () => {
    const before = llm.requests.length
    const out = await summarizeDescriptions(
      {
        entities: [
          entity('FRED', ['nephew', 'nephew']),
          entity('SCROOGE', ['b miser', 'a businessman', 'b miser']),
          entity('MARLEY', []),
        ],
        relationships: [relationship('FRED', 'SCROOGE', ['zeal', 'Ápple', 'apple'])],
      },
      options,
      { chat },
    )
    expect(out.entities.map((e) => [e.title, e.description])).toEqual([
      ['FRED', 'nephew'],
      ['SCROOGE', 'SUMMARY OF ["a businessman", "b miser"]'],
      ['MARLEY', ''],
    ])
    expect(out.relationships[0]).toEqual({
      source: 'FRED',
      target: 'SCROOGE',
      text_unit_ids: ['u1'],
      weight: 3,
      description: 'SUMMARY OF ["apple", "zeal", "Ápple"]',
    })
    expect(out.calls).toBe(2)
    const sent = llm.requests.slice(before).map((r) => JSON.stringify(r.body))
    expect(sent).toHaveLength(2)
    expect(sent.some((b) => b.includes('# Subject\\n\\"SCROOGE\\"'))).toBe(true)
    expect(sent.some((b) => b.includes('# Subject\\n[\\"FRED\\", \\"SCROOGE\\"]'))).toBe(true)
    expect(sent.every((b) => b.includes('no more than 120 words'))).toBe(true)
  })

  /** The description list each summary request carried, in request order. */
  const batchesSince = (before: number) =>
    llm.requests.slice(before).map((r) => {
      const content = (r.body as { messages: Array<{ content: string }> }).messages[0]!.content
      return JSON.parse(/# Descriptions to merge\n(.*)\n/.exec(content)![1]!) as string[]
    })
  const tokens = (batch: readonly string[]) => batch.reduce((n, d) => n + chat.countTokens(d), 0)

  it('sends a batch before the description that would overflow max_input_tokens, each later batch starting from the summary', async () => {
    const descriptions = ['d1 one two three', 'd2 one two three', 'd3 one two three', 'd4 one two three']
    const perDescription = chat.countTokens(descriptions[0]!)
    const budget = 2 * perDescription + 1
    const before = llm.requests.length
    const out = await summarizeDescriptions(
      { entities: [entity('GHOST', descriptions)], relationships: [] },
      { ...options, maxInputTokens: chat.countTokens(prompt) + budget },
      { chat },
    )
    const batches = batchesSince(before)
    expect(batches[0]).toEqual(['d1 one two three', 'd2 one two three'])
    for (const batch of batches) expect(tokens(batch)).toBeLessThanOrEqual(budget)
    expect(batches.slice(1).every((b) => b.some((d) => d.startsWith('SUMMARY OF [')))).toBe(true)
    for (const d of descriptions)
      expect(
        batches.some((b) => b.includes(d)),
        d,
      ).toBe(true)
    expect(out.calls).toBe(batches.length)
    expect(out.truncated).toBe(0)
    expect(out.entities[0]!.description).toContain('d4 one two three')
  })

  it('cuts a description longer than the whole budget to fit instead of dropping it', async () => {
    const long = `a long description of the ghost ${'who walks the night '.repeat(40)}`.trim()
    const budget = 20
    const before = llm.requests.length
    const out = await summarizeDescriptions(
      { entities: [entity('GHOST', [long, 'short one'])], relationships: [] },
      { ...options, maxInputTokens: chat.countTokens(prompt) + budget },
      { chat },
    )
    const batches = batchesSince(before)
    expect(batches[0]).toHaveLength(1)
    expect(batches[0]![0]!.length).toBeGreaterThan(0)
    expect(long.startsWith(batches[0]![0]!)).toBe(true)
    for (const batch of batches) expect(tokens(batch)).toBeLessThanOrEqual(budget)
    expect(batches.at(-1)).toContain('short one')
    expect(out.truncated).toBe(1)
  })

  it('fails with a ConfigError naming max_input_tokens when the prompt alone exceeds it', async () => {
    const run = summarizeDescriptions(
      { entities: [entity('GHOST', ['a', 'b'])], relationships: [] },
      { ...options, maxInputTokens: 10 },
      { chat },
    )
    await expect(run).rejects.toMatchObject({ code: 'CONFIG', keyPath: 'summarize_descriptions.max_input_tokens' })
  })
})
