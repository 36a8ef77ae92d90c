import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'
import { DULCE_DIMENSION } from '../query/support/dulce.js'

// Flags of Microsoft GraphRAG's CLI that a user carries over: each must parse, none may fail with "too many arguments".
describe('Microsoft GraphRAG flags', () => {
  it('index accepts --cache as well as --no-cache', async () => {
    // A dry run calls no model; with --skip-validation it does not check the endpoint either.
    const root = await testdir({
      'settings.yaml': fakeModelSettingsYaml('http://127.0.0.1:9/v1'),
      'input/a.txt': 'Some text.',
    })
    for (const flag of ['--cache', '--no-cache']) {
      const dry = await runCli(['index', '--root', root, flag, '--dry-run', '--skip-validation'])
      expect(dry.code, `${flag}: ${dry.stderr}`).toBe(0)
    }
  })

  it('update --verbose and prompt-tune --domain x reach the command, not a usage error', async () => {
    const root = await testdir({})
    for (const args of [
      ['update', '--root', root, '--verbose'],
      ['prompt-tune', '--root', root, '--domain', 'x'],
      ['prompt-tune', '--root', root, '--domain', 'x', '--limit', '5'],
    ] as const) {
      const run = await runCliInProcess([...args])
      expect(run.stderr, args.join(' ')).not.toContain('too many arguments')
      expect(run.stderr, args.join(' ')).not.toContain('unknown option')
      // The command's own action ran: it looks for the project's settings, which this empty root lacks.
      expect(run.stderr, args.join(' ')).toContain('graphrag: no settings.yaml, settings.yml or settings.json in')
    }
  })
})

describeShared('query --no-streaming and --no-dynamic-community-selection', () => {
  let fake: FakeLlm
  let root: string
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION })
    // Rating the top level only keeps the dynamic run short.
    root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl)}global_search:\n  dynamic_search_max_level: 0\n`,
    })
  })
  afterAll(() => fake?.close())

  it('parse, and the later of a flag and its --no- form wins', async () => {
    const data = sharedPath('reference', 'msgr-v3-dulce')
    const run = await runCliInProcess([
      'query',
      '--root',
      root,
      '--data',
      data,
      '--streaming',
      '--no-streaming',
      '--dynamic-community-selection',
      '--no-dynamic-community-selection',
      'Who leads the squad?',
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim().length).toBeGreaterThan(0)
    expect(fake.requests.some((r) => r.kind === 'dynamic_rating')).toBe(false)
    const dynamic = await runCliInProcess([
      'query',
      '--root',
      root,
      '--data',
      data,
      '--no-dynamic-community-selection',
      '--dynamic-community-selection',
      'Who leads the squad?',
    ])
    expect(dynamic.code, dynamic.stderr).toBe(0)
    expect(fake.requests.some((r) => r.kind === 'dynamic_rating')).toBe(true)
  })
})
