import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/models.js'
import { summarizeDescriptions } from '../../../src/index/operations/summarize-descriptions.js'
import { loadPrompt } from '../../../src/llm/prompt-template.js'
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

const entity = (title: string, description: string[]) => ({ title, type: 'PERSON', description, text_unit_ids: ['u1'], frequency: 1 })
const relationship = (source: string, target: string, description: string[]) => ({ source, target, description, text_unit_ids: ['u1'], weight: 3 })

describe('summarizeDescriptions through the fake server', () => {
  let llm: FakeLlm
  let chat: ChatModel
  const prompt = loadPrompt(null, 'summarize_descriptions.txt', 'summarize_descriptions.prompt')
  const options = { prompt, maxLength: 120, maxInputTokens: 4000, concurrency: 4 }

  beforeAll(async () => {
    llm = await startFakeLlm({ responders: [echoList] })
    const t = await createTestContext({ settingsYaml: fakeModelSettingsYaml(llm.baseUrl) })
    const registry = createModelRegistry(t.settings, { cache: t.ctx.cache, log: SILENT_LOGGER })
    chat = registry.forWorkflow('extract_graph').chat('default_completion_model', { keyPath: 'summarize_descriptions.completion_model_id', cachePartition: 'summarize_descriptions' })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('calls the model only for two or more distinct descriptions, with sorted JSON input and max_length', async () => {
    const before = llm.requests.length
    const out = await summarizeDescriptions(
      {
        entities: [entity('FRED', ['nephew', 'nephew']), entity('SCROOGE', ['b miser', 'a businessman', 'b miser']), entity('MARLEY', [])],
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
    expect(out.relationships[0]).toEqual({ source: 'FRED', target: 'SCROOGE', text_unit_ids: ['u1'], weight: 3, description: 'SUMMARY OF ["apple", "zeal", "Ápple"]' })
    expect(out.calls).toBe(2)
    const sent = llm.requests.slice(before).map((r) => JSON.stringify(r.body))
    expect(sent).toHaveLength(2)
    expect(sent.some((b) => b.includes('# Subject\\n\\"SCROOGE\\"'))).toBe(true)
    expect(sent.some((b) => b.includes('# Subject\\n[\\"FRED\\", \\"SCROOGE\\"]'))).toBe(true)
    expect(sent.every((b) => b.includes('no more than 120 words'))).toBe(true)
  })

  it('feeds descriptions in batches that fit max_input_tokens, each later batch starting from the summary', async () => {
    const descriptions = ['d1 one two three', 'd2 one two three', 'd3 one two three', 'd4 one two three']
    const perDescription = chat.countTokens(descriptions[0]!)
    const budget = chat.countTokens(prompt) + 2 * perDescription + 1
    const before = llm.requests.length
    const out = await summarizeDescriptions({ entities: [entity('GHOST', descriptions)], relationships: [] }, { ...options, maxInputTokens: budget }, { chat })
    const batches = llm.requests.slice(before).map((r) => /Descriptions to merge\\n(.*?)\\n/.exec(JSON.stringify(r.body))?.[1])
    expect(batches.length).toBeGreaterThan(1)
    expect(batches[0]).toBe('[\\"d1 one two three\\", \\"d2 one two three\\", \\"d3 one two three\\"]')
    expect(out.entities[0]!.description.startsWith('SUMMARY OF [')).toBe(true)
    expect(out.entities[0]!.description).toContain('d4 one two three')
  })
})
