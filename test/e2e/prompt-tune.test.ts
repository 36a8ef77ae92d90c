import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatPrompt } from '../../src/prompts/prompt-template.js'
import { parseGraphReply } from '../../src/index/operations/extract-graph/parse.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

// A two-domain corpus: a long maritime log with many typed names, and a short note on enzymes whose
// only type (ENZYME) is rarer than the log's top four.
const HARBOUR = [
  'At dawn the ship Kestrel left the port Harwick with the captain Morrow on the bridge. The company Seacrest owned the ship Kestrel and chartered it for the river Tamble.',
  'The ship Albatross followed, commanded by the captain Ostrand, bound for the port Lindqvay. The company Brightwater paid the crew of the ship Albatross in advance.',
  'Near the river Oster the ship Petrel met the ship Fulmar. The captain Haldane of the ship Petrel signalled the port Sandmere that the company Northwind cargo was safe.',
  'The ship Skua and the ship Tern waited at the port Vellmar, then moved on to the port Oskarn.',
  'By evening the ship Gannet reached the port Harwick. The captain Reyna reported to the company Seacrest that the river Tamble was running high.',
].join('\n\n')
const ENZYMES =
  'In the laboratory the enzyme Lactazin broke down the sugar faster than expected, while the enzyme Kinorase stayed inactive.'
const FRENCH = [
  'Le matin, le navire Mistral a quitté le port Brestel avec le capitaine Morvan à la barre. La compagnie Armorique est la propriétaire du navire Mistral.',
  'Dans la soirée, le navire Goéland est arrivé au port Brestel. Le capitaine Le Gall a informé la compagnie Armorique que la mer était forte et que les marchandises étaient en sécurité.',
].join('\n\n')

const PROMPT_SETTINGS = [
  'extract_graph:\n  prompt: prompts/extract_graph.txt\n  max_gleanings: 0',
  'summarize_descriptions:\n  prompt: prompts/summarize_descriptions.txt',
  'community_reports:\n  graph_prompt: prompts/community_report_graph.txt\n  text_prompt: prompts/community_report_text.txt',
  'vector_store:\n  vector_size: 32',
].join('\n')

const TUNE = ['--selection-method', 'all', '--chunk-size', '60', '--max-entity-types', '4']

function promptTypes(extractGraph: string): string[] {
  const line = [...extractGraph.matchAll(/^Entity types: (.*)$/gm)].at(-1)?.[1] ?? ''
  return line.split(',')
}

describe('graphrag prompt-tune (CLI, fake OpenAI server)', () => {
  let fake: FakeLlm
  let root: string
  let tuned: CliResult
  const read = (file: string) => readFile(join(root, 'prompts', file), 'utf8')

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 32 })
    root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl)}${PROMPT_SETTINGS}\n`,
      'input/harbour.txt': HARBOUR,
      'input/enzymes.txt': ENZYMES,
    })
    tuned = await runCli(['prompt-tune', '--root', root, ...TUNE])
  }, 120_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('writes the four prompts, prints them and the discovered types', async () => {
    expect(tuned.code, tuned.stderr).toBe(0)
    for (const file of [
      'extract_graph.txt',
      'summarize_descriptions.txt',
      'community_report_graph.txt',
      'community_report_text.txt',
    ]) {
      expect(existsSync(join(root, 'prompts', file)), file).toBe(true)
      expect(tuned.stdout).toMatch(new RegExp(`${file}\\s+written`))
    }
    expect(tuned.stdout).toContain('Entity types (discovered): SHIP, ENZYME, CAPTAIN, PORT')
    expect(tuned.stdout).toContain('Language: English')
    expect(tuned.stdout).toMatch(/Model usage: default_completion_model \(gpt-4.1-mini\): \d+ calls/)
  })

  it('keeps a type only one document uses with the stratified strategy (the default)', async () => {
    expect(promptTypes(await read('extract_graph.txt'))).toEqual(['SHIP', 'ENZYME', 'CAPTAIN', 'PORT'])
  })

  it('keeps the template variables the pipeline fills and a record format our parser reads', async () => {
    const extract = await read('extract_graph.txt')
    expect(extract).toContain('{input_text}')
    expect(extract).not.toContain('{entity_types}')
    expect(extract).toMatch(/^# Role\nYou are an expert in /)
    const examples = [...extract.matchAll(/^# Example \d+\n[\s\S]*?Output:\n([\s\S]*?)\n\n# /gm)].map((m) => m[1]!)
    expect(examples.length).toBeGreaterThanOrEqual(2)
    for (const output of examples) {
      const parsed = parseGraphReply(formatPrompt(output, {}))
      expect(parsed.dropped).toEqual([])
      expect(parsed.entities.length).toBeGreaterThan(0)
    }
    const summarize = await read('summarize_descriptions.txt')
    for (const v of ['{entity_name}', '{description_list}', '{max_length}']) expect(summarize).toContain(v)
    for (const file of ['community_report_graph.txt', 'community_report_text.txt']) {
      const report = await read(file)
      expect(report).toContain('{input_text}')
      expect(report).toContain('The rating measures how much the community matters to')
      expect(report).toMatch(/^# Role\nYou are an analyst of /)
    }
  })

  it('indexes with the tuned prompts: the extraction calls carry the discovered types', async () => {
    const before = fake.requests.length
    // In process: the prompts the index sends are asked, not the CLI (prompt-tune's own runs stay CLI runs).
    await runIndex({ root, method: 'standard' })
    const extraction = fake.requests.slice(before).filter((r) => r.kind === 'extract_graph')
    expect(extraction.length).toBeGreaterThan(0)
    for (const r of extraction) {
      const content = JSON.stringify(r.body)
      expect(content).toContain('Entity types: SHIP,ENZYME,CAPTAIN,PORT')
      expect(content).toContain('You are an expert in ')
    }
    expect(fake.requests.slice(before).some((r) => r.kind === 'community_report')).toBe(true)
  }, 120_000)

  it('never overwrites: a second run writes beside the prompts, --force replaces them', async () => {
    const original = await read('extract_graph.txt')
    const again = await runCliInProcess(['prompt-tune', '--root', root, ...TUNE, '--type-strategy', 'global'])
    expect(again.code, again.stderr).toBe(0)
    expect(await read('extract_graph.txt')).toBe(original)
    expect(again.stdout).toContain('extract_graph.tuned.txt (--force replaces the original)')
    // global: the four most frequent types overall; the enzyme note's only type is dropped.
    expect(promptTypes(await read('extract_graph.tuned.txt'))).toEqual(['SHIP', 'CAPTAIN', 'PORT', 'COMPANY'])
    const forced = await runCliInProcess([
      'prompt-tune',
      '--root',
      root,
      ...TUNE,
      '--type-strategy',
      'global',
      '--force',
    ])
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.stdout).toMatch(/extract_graph\.txt\s+replaced/)
    expect(await read('extract_graph.txt')).toBe(await read('extract_graph.tuned.txt'))
  }, 60_000)

  it('--dry-run lists the sample and the estimate without calling a model or writing', async () => {
    const before = fake.requests.length
    const dry = await runCliInProcess([
      'prompt-tune',
      '--root',
      root,
      '--selection-method',
      'top',
      '--limit',
      '3',
      '--chunk-size',
      '60',
      '--output',
      'elsewhere',
      '--dry-run',
    ])
    expect(dry.code, dry.stderr).toBe(0)
    expect(fake.requests.length).toBe(before)
    expect(existsSync(join(root, 'elsewhere'))).toBe(false)
    expect(dry.stdout).toContain('Selection: top, 3 sample chunks:')
    expect(dry.stdout).toMatch(/#1 +enzymes\.txt/)
    expect(dry.stdout).toMatch(/^ {2}examples +3 calls/m)
    expect(dry.stdout).toMatch(/^ {2}total +\d+ calls .*\$\d/m)
  })
})

describe('graphrag prompt-tune on a French corpus', () => {
  let fake: FakeLlm

  afterAll(async () => {
    await fake?.close()
  })

  it('detects the language and asks for it in every prompt', async () => {
    fake = await startFakeLlm()
    const root = await testdir({ 'settings.yaml': fakeModelSettingsYaml(fake.baseUrl), 'input/journal.txt': FRENCH })
    const result = await runCliInProcess([
      'prompt-tune',
      '--root',
      root,
      '--selection-method',
      'top',
      '--chunk-size',
      '60',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Language: French')
    for (const file of [
      'extract_graph.txt',
      'summarize_descriptions.txt',
      'community_report_graph.txt',
      'community_report_text.txt',
    ]) {
      const text = await readFile(join(root, 'prompts', file), 'utf8')
      expect(text, file).toContain('in French')
      expect(text, file).not.toContain('in English')
    }
    expect(await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')).toContain('NAVIRE')
    // The settings do not point at prompts/, so the command says how to use them.
    expect(result.stdout).toContain('  extract_graph.prompt: prompts/extract_graph.txt\n')
  }, 60_000)
})
