// `graphrag prompt-tune --apply`: the tuned prompts are put in use (the files they replace and the
// settings file are backed up first), and without it the output says how to use them.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printPromptTuneResult } from '../../src/cli/prompt-tune-output.js'
import { loadConfig } from '../../src/config/index.js'
import { runPromptTune } from '../../src/prompt-tune/run.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const OLD_PROMPT = 'my hand-written extraction prompt {input_text} {entity_types}\n'

describe('prompt-tune --apply (fake OpenAI server)', () => {
  let fake: FakeLlm
  let root: string
  let settingsText: string
  const options = () => ({
    root,
    selectionMethod: 'all' as const,
    domain: 'merchant shipping',
    language: 'English',
    discoverEntityTypes: false,
  })
  const printed = (result: Awaited<ReturnType<typeof runPromptTune>>) => {
    let text = ''
    printPromptTuneResult(result, { write: (t: string) => (text += t) })
    return text
  }

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 16 })
    settingsText = `# my project settings\n${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}cache:\n  type: none\n`
    root = await testdir({
      'settings.yaml': settingsText,
      'prompts/extract_graph.txt': OLD_PROMPT,
      'input/a.txt': 'The ship Kestrel left the port Harwick under the captain Morrow.',
      'input/b.txt': 'The company Brightwater bought the ship Fulmar from the company Northwind.',
    })
  })
  afterAll(async () => fake?.close())

  it('without --apply, an existing prompt is kept, the tuned one goes beside it, and the output says how to use it', async () => {
    const result = await runPromptTune(options())
    expect(result.written.find((w) => w.file === 'extract_graph.txt')!.outcome).toBe('beside')
    expect(await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')).toBe(OLD_PROMPT)
    expect(printed(result)).toContain('Run again with --apply to back up the current prompts and use the tuned ones')
  })

  it('--apply backs up the replaced prompt and the settings, then points the settings at the tuned prompts', async () => {
    const result = await runPromptTune({ ...options(), apply: true })
    const tuned = await readFile(join(root, 'prompts', 'extract_graph.txt'), 'utf8')
    expect(tuned).not.toBe(OLD_PROMPT)
    expect(tuned).toContain('merchant shipping')
    const backup = result.applied!.backupDir!
    expect((await readdir(backup)).sort()).toEqual(['extract_graph.txt', 'settings.yaml'])
    expect(await readFile(join(backup, 'extract_graph.txt'), 'utf8')).toBe(OLD_PROMPT)
    expect(await readFile(join(backup, 'settings.yaml'), 'utf8')).toBe(settingsText)

    const settings = loadConfig({ root, env: {} }).settings
    expect(settings.extract_graph.prompt).toBe(join(root, 'prompts', 'extract_graph.txt'))
    expect(settings.community_reports.graph_prompt).toBe(join(root, 'prompts', 'community_report_graph.txt'))
    const yaml = await readFile(join(root, 'settings.yaml'), 'utf8')
    expect(yaml).toMatch(/^# my project settings\n/)
    expect(yaml).toMatch(/^extract_graph:\n\s+prompt: prompts\/extract_graph\.txt$/m)
    expect(result.written.every((w) => w.settingPointsHere)).toBe(true)
    const text = printed(result)
    expect(text).toContain('extract_graph.prompt')
    expect(text).toContain('The tuned prompts are in use: run graphrag index to rebuild with them.')
    expect(text).not.toContain('--apply to back up')
  })
})
