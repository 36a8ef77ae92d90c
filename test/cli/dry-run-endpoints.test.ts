/**
 * `index --dry-run` fails (exit 1, after printing the whole plan) when a model the run needs
 * answers at none of its endpoints: the real run would stop at its first check. A pool with one
 * endpoint up passes (see model-endpoints.test.ts); --skip-validation checks no endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

describe('index --dry-run and model endpoints that do not answer', () => {
  let live: FakeLlm
  let deadUrl: string
  beforeAll(async () => {
    live = await startFakeLlm()
    const dead = await startFakeLlm()
    deadUrl = dead.baseUrl
    await dead.close()
  })
  afterAll(() => live.close())

  const project = (chat: string, embedding: string) =>
    testdir({
      // Both models point at `chat`, then the embedding model is moved to `embedding`.
      'settings.yaml': fakeModelSettingsYaml(chat).replace(
        new RegExp(`(embedding_models:[\\s\\S]*api_base: )${chat.replace(/[.]/g, '\\.')}`),
        `$1${embedding}`,
      ),
      'input/a.txt': 'Marta Quill keeps the harbour records.',
    })

  it('exits 1 after the plan, naming every model that does not answer', async () => {
    const root = await project(deadUrl, deadUrl)
    const run = await runCli(['index', '--root', root, '--dry-run'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('does NOT answer (ECONNREFUSED)')
    expect(run.stdout).toContain('Dry run: nothing was called or written.')
    expect(run.stderr.trim()).toBe(
      'graphrag: the run would fail: completion_models.default_completion_model, embedding_models.default_embedding_model ' +
        'answer at none of their endpoints (see "does NOT answer" above); start the model server or fix api_base',
    )
  })

  it('exits 1 when one needed model does not answer while the other does', async () => {
    const root = await project(live.baseUrl, deadUrl)
    const run = await runCliInProcess(['index', '--root', root, '--dry-run'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`${live.baseUrl}  answers`)
    expect(run.stderr).toContain(
      'the run would fail: embedding_models.default_embedding_model answers at none of its endpoints',
    )
  })

  it('exits 0 when every model answers, and with --skip-validation checks nothing', async () => {
    const ok = await runCliInProcess(['index', '--root', await project(live.baseUrl, live.baseUrl), '--dry-run'])
    expect(ok.code, ok.stderr).toBe(0)
    const root = await project(deadUrl, deadUrl)
    const skipped = await runCliInProcess(['index', '--root', root, '--dry-run', '--skip-validation'])
    expect(skipped.code, skipped.stderr).toBe(0)
    expect(skipped.stdout).toContain('Models (endpoints not checked: --skip-validation, no model call)')
    // No endpoint line says whether it answers (the batch price line's 'answers within 24 h' is not one).
    expect(skipped.stdout).not.toMatch(/ {2}(answers|does NOT answer)/)
  })
})
