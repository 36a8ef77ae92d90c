import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { batchProject } from '../index/batch/project.js'

const DOLLARS = /\$(\d+(?:\.\d+)?)/g

function amounts(line: string | undefined): number[] {
  return [...(line ?? '').matchAll(DOLLARS)].map((m) => Number(m[1]))
}

describe('index --dry-run with batch prices', () => {
  let fake: FakeLlm
  let root: string
  let localRoot: string

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await batchProject(fake)
    // Claims on a local model: Ollama sells no batches.
    localRoot = await batchProject(fake, { localClaims: true })
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('--batch prices the run at batch and synchronous prices', async () => {
    const result = await runCli(['index', '--root', root, '--method', 'standard', '--dry-run', '--batch'])
    expect(result.code, result.stderr).toBe(0)
    const line = result.stdout.split('\n').find((l) => l.startsWith('Batch: '))
    expect(line).toMatch(
      /^Batch: \$[\d.]+ at batch prices instead of \$[\d.]+ synchronously \(saves \$[\d.]+; answers within 24 h\)$/,
    )
    const [batch, sync, saved] = amounts(line)
    expect(batch).toBeGreaterThan(0)
    expect(sync).toBeCloseTo(2 * batch!, 1)
    expect(saved).toBeCloseTo(sync! - batch!, 1)
    // Nothing was submitted or called (the dry run only checks that the endpoints answer).
    expect(fake.batchApi.calls).toHaveLength(0)
    expect(fake.requests.filter((r) => /\/(chat\/completions|embeddings)$/.test(r.path))).toHaveLength(0)
  })

  it('without --batch says what --batch would cost', async () => {
    const result = await runCliInProcess(['index', '--root', root, '--method', 'standard', '--dry-run'])
    expect(result.stdout).toMatch(/^With --batch: \$[\d.]+ instead of \$[\d.]+ \(batch APIs charge about half/m)
    expect(result.stdout).not.toMatch(/^Batch: /m)
  })

  it('names a model whose provider has no batch API: its calls run synchronously', async () => {
    // No ollama server runs here: the endpoint check would fail the dry run (exit 1), so it is skipped.
    const result = await runCliInProcess(
      ['index', '--root', localRoot, '--method', 'standard', '--dry-run', '--batch', '--skip-validation'],
      { env: {} },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('completion_models.local_chat (ollama: no batch API): its calls run synchronously')
  })
})
