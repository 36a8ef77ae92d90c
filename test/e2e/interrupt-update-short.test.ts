/**
 * Issue 46 item 3, reduced form of interrupt-update.test.ts for the default suite: SIGINT to
 * `graphrag update` while an extraction call is held on the wire by the fake model server. The
 * update waits for that call (and caches it) before it records the interruption and exits 130; the
 * previous index stays in output/, the run's state says interrupted, and a re-run finishes, the held
 * reply coming from the cache. Spawns the built CLI.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js'
import { spawnCli } from '../support/index-files.js'
import { testdir } from '../support/testdir.js'

/**
 * How long the fake server holds the update's extraction calls, by arrival: the interrupt lands while
 * two are on the wire; the first answer lets the run stop (its next call is refused) while the second
 * is still held, which the update must wait for.
 */
const HOLD_MS = [800, 2_500]

let fake: FakeLlm
let held = -1
beforeAll(async () => {
  fake = await startFakeLlm({
    embeddingDimension: 8,
    latency: {
      extraMs: (req) => (held >= 0 && req.kind === 'extract_graph' ? (HOLD_MS[held++] ?? HOLD_MS.at(-1)!) : 0),
    },
  })
})
afterAll(() => fake?.close())

async function project(): Promise<string> {
  return testdir({
    'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 2 })}vector_store:\n  vector_size: 8\n`,
    'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
    'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
  })
}

describe('SIGINT during update, a model call on the wire', () => {
  it('waits for the call, exits 130 with the previous index intact and the run marked interrupted; a re-run finishes from the cache', async () => {
    const root = await project()
    // In process: the update below is the CLI run under test.
    await runIndex({ root, method: 'standard', skipValidation: true })
    const published = await readFile(join(root, 'output', 'stats.json'), 'utf8')
    await writeFile(join(root, 'input', 'c.txt'), 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n')
    await writeFile(join(root, 'input', 'd.txt'), 'Brother Aldo rang the chapel bell of Harrowmere at dawn.\n')
    await writeFile(join(root, 'input', 'e.txt'), 'The Windward carried salt and rope to the Tern Rocks station.\n')

    held = 0
    const before = fake.requests.length
    const update = spawnCli(['update', '--root', root, '--skip-validation'])
    const extractions = () => fake.requests.slice(before).filter((r) => r.kind === 'extract_graph')
    while (extractions().length < 2) {
      if (update.child.exitCode !== null) throw new Error(`update ended before extracting: ${update.stderr()}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    update.child.kill('SIGINT')
    let lineAt = 0
    const closing = update.waitFor(/^interrupted: /m).then(() => (lineAt = Date.now()))
    const { code } = await update.exited
    await closing
    held = -1
    expect(code, update.stderr()).toBe(130)
    const sent = fake.requests.slice(before)
    expect(sent.every((r) => r.status === 200)).toBe(true)
    // The closing line comes once every call sent is answered (drained), not while one is still on the wire.
    expect(Math.max(...extractions().map((r) => r.endedAt))).toBeLessThanOrEqual(lineAt)
    expect(update.stderr().trim().split('\n').at(-1)).toMatch(/^interrupted: .*; run the same command to resume$/)

    expect(await readFile(join(root, 'output', 'stats.json'), 'utf8')).toBe(published)
    const state = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    expect(state.status).toBe('interrupted')

    const rerun = await runCli(['update', '--root', root, '--skip-validation'])
    expect(rerun.code, rerun.stderr).toBe(0)
    const done = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(done.status).toBeUndefined()
    expect(done.workflows.extract_graph.llm.default_completion_model.cacheHits).toBeGreaterThanOrEqual(1)
    expect(existsSync(join(root, '.output.run', 'work'))).toBe(false)
  }, 120_000)
})
