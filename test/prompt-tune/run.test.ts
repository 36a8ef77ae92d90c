import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecordingReporter } from '../../src/index/run/reporter.js'
import { runPromptTune } from '../../src/prompt-tune/run.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const PASSAGES = [
  'The ship Kestrel left the port Harwick under the captain Morrow.',
  'The ship Albatross carried salt for the company Seacrest.',
  'The captain Ostrand sailed the ship Petrel to the port Sandmere.',
  'The company Brightwater bought the ship Fulmar from the company Northwind.',
]

describe('runPromptTune (in process, fake OpenAI server)', () => {
  let fake: FakeLlm
  let root: string

  beforeAll(async () => {
    fake = await startFakeLlm({
      embeddingDimension: 16,
      responders: [
        // One chunk's example has no entity of the listed types; another chunk's type list is never valid JSON.
        ({ kind, messages }) =>
          kind === 'tune_example' && messages[0]!.content.includes('Albatross')
            ? '{"entities": [], "relationships": []}'
            : undefined,
        ({ kind, messages }) =>
          kind === 'tune_entity_types' && messages[0]!.content.includes('Brightwater') ? 'no JSON here' : undefined,
      ],
    })
    const settings = `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 1 })}cache:\n  type: none\n`
    root = await testdir({
      'settings.yaml': settings,
      ...Object.fromEntries(PASSAGES.map((p, i) => [`input/${i}.txt`, p])),
    })
  })

  afterAll(async () => {
    await fake?.close()
  })

  it('skips and counts unusable answers, asks no domain when given one, and still writes the prompts', async () => {
    const reporter = new RecordingReporter()
    const before = fake.requests.length
    const result = await runPromptTune({ root, domain: 'merchant shipping', selectionMethod: 'all', reporter })
    const kinds = fake.requests.slice(before).map((r) => r.kind)
    expect(kinds).not.toContain('tune_domain')
    expect(result.domain).toBe('merchant shipping')
    expect(result.unusable.map((u) => [u.step, u.chunk])).toEqual([
      ['entity types', 4],
      ['examples', 2],
    ])
    expect(result.unusable[1]!.problem).toBe('no entity of the listed types')
    // The broken answer was asked for twice (one retry), then skipped.
    expect(kinds.filter((k) => k === 'tune_entity_types')).toHaveLength(5)
    expect(result.examplesGenerated).toBe(3)
    const warnings = reporter.events.filter((e) => e.type === 'warning').map((e) => String(e.message))
    expect(warnings.filter((w) => w.startsWith('unusable answer'))).toHaveLength(2)
    expect([...result.entityTypes].sort()).toEqual(['CAPTAIN', 'COMPANY', 'PORT', 'SHIP'])
    expect(await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')).toContain('merchant shipping')
    expect(result.usage[0]!.usage.calls).toBeGreaterThanOrEqual(kinds.length - 1)
  })

  it('auto selection embeds the chunks and keeps k of them, the same ones on every run', async () => {
    const before = fake.requests.length
    const options = {
      root,
      selectionMethod: 'auto' as const,
      k: 2,
      force: true,
      discoverEntityTypes: false,
      language: 'English',
    }
    const first = await runPromptTune(options)
    const requests = fake.requests.slice(before)
    expect(requests.filter((r) => r.kind === 'embedding').length).toBeGreaterThan(0)
    expect(requests.some((r) => r.kind === 'tune_entity_types' || r.kind === 'tune_language')).toBe(false)
    expect(first.sampleSize).toBe(2)
    expect(first.typesDiscovered).toBe(false)
    const extract = await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')
    expect(extract).toContain('{entity_types}')
    const second = await runPromptTune(options)
    expect(await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')).toBe(extract)
    expect(second.written.every((w) => w.outcome === 'unchanged')).toBe(true)
  })
})
