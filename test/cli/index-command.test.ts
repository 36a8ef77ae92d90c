import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const THROUGH_EXTRACTION = 'workflows: [load_input_documents, create_base_text_units, extract_graph]\n'

/** Eight one-chunk documents; the fake server fails extraction for the six that mention the Fog Bell. */
function inputs(): Record<string, string> {
  const files: Record<string, string> = {}
  for (let i = 0; i < 8; i++) {
    const subject = i < 6 ? 'The Fog Bell' : 'Marta Quill'
    files[`input/note-${i}.txt`] = `${subject} was heard near Kettle Harbour on night ${i}, said Captain Olsen.`
  }
  return files
}

// The first failure and the missing prompt's --dry-run are spawned; the other runs ask the same command in
// process (runCliInProcess: same main(), messages and exit codes, no start-up).
const graphragLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('graphrag:'))

describe('graphrag index: failure output', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({
      responders: [
        ({ kind, messages }) => {
          const text = messages.find((m) => m.role === 'user')?.content ?? ''
          if (kind === 'extract_graph' && text.includes('The Fog Bell')) throw new Error('injected failure')
          return undefined
        },
      ],
    })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('prints one line naming the workflow, the count and the first failure, once', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}${THROUGH_EXTRACTION}`,
      ...inputs(),
    })
    const run = await runCli(['index', '--root', root, '--skip-validation'])
    expect(run.code).toBe(1)
    const lines = graphragLines(run.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^graphrag: extract_graph failed: 6 of 8 text units failed after retries, more than extract_graph\.max_failed_fraction = 0 allows \(first: \w+: completion_models\.default_completion_model: HTTP 500.*\); to finish the index without them, raise extract_graph\.max_failed_fraction or pass --allow-partial; the failed items are listed in .*stats\.json; run the command again to retry only them \(the others are answered from the cache\)$/,
    )
    expect(run.stderr.match(/HTTP 500/g)).toHaveLength(1)
    expect(run.stderr).not.toMatch(/^\s+at /m)
    // A failed run publishes nothing: its stats.json stays in the work generation the message names.
    const statsPath = /listed in (\S+stats\.json)/.exec(lines[0]!)![1]!
    expect(statsPath).toBe(join(root, '.output.run', 'work', 'stats.json'))
    const stats = JSON.parse(await readFile(statsPath, 'utf8'))
    expect(stats.workflows.extract_graph.error).toBe(lines[0]!.slice('graphrag: '.length))
  })

  it('leaves out the cache hint when the cache is off', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}${THROUGH_EXTRACTION}`,
      ...inputs(),
    })
    const noCache = await runCliInProcess(['index', '--root', root, '--skip-validation', '--no-cache'])
    expect(graphragLines(noCache.stderr)).toEqual([
      expect.stringMatching(/^graphrag: extract_graph failed: 6 of 8 .*stats\.json$/),
    ])
    const settings = `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}${THROUGH_EXTRACTION}cache:\n  type: none\n`
    await writeFile(join(root, 'settings.yaml'), settings)
    const typeNone = await runCliInProcess(['index', '--root', root, '--skip-validation'])
    expect(typeNone.code).toBe(1)
    expect(typeNone.stderr).not.toContain('answered from the cache')
  })

  it('stops at the first rejected key instead of sending every text unit, in one line; the stack only with --verbose', async () => {
    const settings = `${fakeModelSettingsYaml(llm.baseUrl, { apiKey: 'bad-key' })}${THROUGH_EXTRACTION}concurrent_requests: 2\n`
    const root = await testdir({ 'settings.yaml': settings, ...inputs() })
    const before = llm.requests.length
    const run = await runCliInProcess(['index', '--root', root, '--skip-validation'])
    expect(run.code).toBe(1)
    // Two units are in flight when the first 401 arrives; the other six are never sent.
    expect(llm.requests.slice(before).length).toBeLessThanOrEqual(2)
    expect(graphragLines(run.stderr)).toEqual([
      expect.stringMatching(
        /^graphrag: extract_graph failed: completion_models\.default_completion_model: the provider rejected the API key \(HTTP 401\)/,
      ),
    ])
    expect(run.stderr).not.toMatch(/answered from the cache|listed in/)
    expect(run.stderr).not.toContain('bad-key')
    expect(run.stderr).not.toMatch(/^\s+at /m)
    const verbose = await runCliInProcess(['index', '--root', root, '--skip-validation', '--verbose'])
    expect(verbose.stderr).toMatch(/^\s+at /m)
  })
})

describe('graphrag index: prompt files checked before anything runs', () => {
  const settings = `workflows: [load_input_documents, create_base_text_units, extract_graph]\nextract_graph:\n  prompt: prompts/missing.txt\n`

  it('--dry-run names the settings key and the path of a missing prompt', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml('http://127.0.0.1:9/v1')}${settings}`,
      'input/a.txt': 'Marta Quill keeps the records.',
    })
    const run = await runCli(['index', '--root', root, '--dry-run'])
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('(valid)')
    expect(run.stderr.trim()).toBe(
      `graphrag: extract_graph.prompt: cannot read prompt file ${join(root, 'prompts', 'missing.txt')} (ENOENT)`,
    )
  })

  it('a real run fails before the first workflow', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml('http://127.0.0.1:9/v1')}${settings}`,
      'input/a.txt': 'Marta Quill keeps the records.',
    })
    const run = await runCliInProcess(['index', '--root', root, '--skip-validation'])
    expect(run.code).toBe(1)
    expect(run.stderr).not.toContain('Starting workflow')
    expect(graphragLines(run.stderr)).toEqual([
      expect.stringContaining('extract_graph.prompt: cannot read prompt file'),
    ])
    expect(existsSync(join(root, 'output', 'documents.parquet'))).toBe(false)
  })

  it('ignores the prompt of a workflow that will not call a model (claims disabled)', async () => {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml('http://127.0.0.1:9/v1')}extract_claims:\n  enabled: false\n  prompt: prompts/missing.txt\n`,
      'input/a.txt': 'Marta Quill keeps the records.',
    })
    const run = await runCliInProcess(['index', '--root', root, '--dry-run', '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
  })
})

describe('graphrag index: usage per model', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('records the preflight calls in stats.json and prints a line per model, with cost unknown for an unpriced model', async () => {
    const root = await testdir({
      'settings.yaml': [
        fakeModelSettingsYaml(llm.baseUrl, { chatModel: 'harbour-llama-7b' }),
        'workflows: [load_input_documents, create_base_text_units, create_final_documents, extract_graph, finalize_graph, create_final_text_units, generate_text_embeddings]',
        'embed_text:\n  names: [text_unit_text]',
        'vector_store:\n  vector_size: 8',
        '',
      ].join('\n'),
      ...inputs(),
    })
    const run = await runCliInProcess(['index', '--root', root])
    expect(run.code, run.stderr).toBe(0)
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.preflight.llm.default_completion_model).toMatchObject({ calls: 1 })
    expect(stats.preflight.llm.default_embedding_model).toMatchObject({ calls: 1 })
    const workflowCalls = Object.values(stats.workflows as Record<string, { llm: Record<string, { calls: number }> }>)
      .flatMap((w) => Object.values(w.llm))
      .reduce((n, u) => n + u.calls, 0)
    expect(stats.llm_totals.calls).toBe(workflowCalls + 2)
    expect(run.stderr).toMatch(/^Model usage: .* tokens, \$[\d.]+ \+ unknown \(default_completion_model\)$/m)
    expect(run.stderr).toMatch(/^ {2}default_completion_model \(harbour-llama-7b\): \d+ calls, .*, cost unknown$/m)
    expect(run.stderr).toMatch(/^ {2}default_embedding_model \(text-embedding-3-small\): \d+ calls, .*, \$0\.\d+$/m)
  })
})

/** Runs the CLI with its stdout already closed by the reader, as `graphrag ... | head -0` does. */
function runWithClosedStdout(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }))
  })
}

describe('output piped to a reader that has gone', () => {
  it('init ends quietly with exit code 0', async () => {
    const root = await testdir({})
    const run = await runWithClosedStdout(['init', '--root', root])
    expect(run).toEqual({ code: 0, stderr: '' })
    expect(existsSync(join(root, 'settings.yaml'))).toBe(true)
  })

  it('index --dry-run ends quietly with exit code 0', async () => {
    const root = await testdir({
      'settings.yaml': fakeModelSettingsYaml('http://127.0.0.1:9/v1'),
      'input/a.txt': 'Marta Quill keeps the records.',
    })
    const run = await runWithClosedStdout(['index', '--root', root, '--dry-run', '--skip-validation'])
    expect(run).toEqual({ code: 0, stderr: '' })
  })
})
