import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

// Every way a reply can go wrong that a retry can fix; hangs are left out to keep the drill fast.
const KINDS = ['429', '500', 'empty_choices', 'null_content', 'html', 'truncated', 'malformed', 'wrong_shape'] as const

async function project(fake: FakeLlm, text: string): Promise<string> {
  const settings = [
    // Ten retries: a call fails for good only if 11 replies in a row are faults (0.3^11 ≈ 2e-6).
    fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 10 }),
    'chunking:\n  size: 100\n  overlap: 0',
    'vector_store:\n  vector_size: 16',
    '',
  ].join('\n')
  return testdir({ 'settings.yaml': settings, 'input/harbour.txt': text })
}

async function tables(root: string): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {}
  for (const name of (await readdir(join(root, 'output'))).filter((f) => f.endsWith('.parquet')).sort())
    out[name] = await readFile(join(root, 'output', name))
  return out
}

describe('fault drill: 30 % of model replies are garbage, 429 or 500', () => {
  let clean: FakeLlm
  let faulty: FakeLlm
  let cleanRoot: string
  let faultyRoot: string
  let cleanRun: CliResult
  let faultyRun: CliResult

  beforeAll(async () => {
    const text = (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', '01-the-harbour.txt'), 'utf8')).slice(
      0,
      4000,
    )
    clean = await startFakeLlm({ embeddingDimension: 16 })
    faulty = await startFakeLlm({
      embeddingDimension: 16,
      faults: { rate: 0.3, kinds: [...KINDS], seed: 22, retryAfterSeconds: 0.01 },
    })
    cleanRoot = await project(clean, text)
    faultyRoot = await project(faulty, text)
    cleanRun = await runCliInProcess(['index', '--root', cleanRoot, '--method', 'standard'])
    faultyRun = await runCli(['index', '--root', faultyRoot, '--method', 'standard'])
  }, 120_000)
  afterAll(async () => {
    await clean?.close()
    await faulty?.close()
  })

  it('writes tables byte-identical to a clean run, counting the retries and no failure', async () => {
    expect(cleanRun.code, cleanRun.stderr).toBe(0)
    expect(faultyRun.code, faultyRun.stderr).toBe(0)
    const faults = faulty.requests.filter((r) => r.fault !== undefined)
    expect(new Set(faults.map((r) => r.fault)).size).toBeGreaterThanOrEqual(5)
    const expected = await tables(cleanRoot)
    expect(Object.keys(expected)).toContain('community_reports.parquet')
    expect(await tables(faultyRoot)).toEqual(expected)
    const stats = JSON.parse(await readFile(join(faultyRoot, 'output', 'stats.json'), 'utf8'))
    for (const [name, workflow] of Object.entries(stats.workflows as Record<string, { status: string }>))
      expect(workflow.status, name).toBe('succeeded')
    expect(stats.llm_totals.retries).toBeGreaterThanOrEqual(faults.length - 2)
    expect(stats.llm_totals.failures).toBe(0)
  })

  it('shows the retries in the progress lines and logs a warning per retry, without --verbose', async () => {
    expect(faultyRun.stderr).toMatch(/extract_graph done in .* · \d+ retr(y|ies)/)
    expect(cleanRun.stderr).not.toMatch(/retr(y|ies)/)
    const log = await readFile(join(faultyRoot, 'logs', 'indexing-engine.log'), 'utf8')
    const warnings = log.split('\n').filter((l) => /WARN.*attempt \d+ failed \(.*\); retrying in/.test(l))
    expect(warnings.length).toBeGreaterThanOrEqual(faulty.requests.filter((r) => r.fault !== undefined).length - 2)
  })

  it('caches no garbage: a re-run against a healthy server makes no call and changes nothing', async () => {
    faulty.setFaults(undefined)
    const before = faulty.requests.length
    const again = await runCliInProcess([
      'index',
      '--root',
      faultyRoot,
      '--method',
      'standard',
      '--no-resume',
      '--skip-validation',
    ])
    expect(again.code, again.stderr).toBe(0)
    expect(faulty.requests.length).toBe(before)
    expect(await tables(faultyRoot)).toEqual(await tables(cleanRoot))
  })
})
