/**
 * Queries served while updates publish (issue 47 item 5): a local-folder index is published by two
 * renames, and a query that read `output/` by path failed at that moment ("the index has no
 * text_units table", "no text_unit_text table"). Each query pins one generation for its whole life.
 * The drill widens the moment output/ is absent (the real publish, with a pause between its renames).
 */
import { cp, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { generationPaths, openWorkGeneration, publishGeneration } from '../../src/storage/generations.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { fastChatSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const settingsYaml = (baseUrl: string) => fastChatSettingsYaml(baseUrl, { apiKey: 'sk-test' })

describe('serve while a local-folder index publishes', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await testdir({ 'settings.yaml': settingsYaml(fake.baseUrl) })
    // Two documents of the demo corpus: enough for every table and vector store, quick to index.
    for (const name of ['01-the-harbour.txt', '02-the-storm.txt'])
      await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', name), join(root, 'input', name))
    await runIndex({ root, env: {}, skipValidation: true })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('answers every query from one whole generation while generations are published under it', async () => {
    const paths = generationPaths(join(root, 'output'))
    let publishing = true
    const failures: string[] = []
    const publishes = (async () => {
      for (let n = 0; n < 6; n++) {
        const work = await openWorkGeneration(paths)
        await writeFile(join(work.dir, 'generation.txt'), `${n}\n`)
        await publishGeneration(paths, () => sleep(60))
        await sleep(40)
      }
    })()
      // A reader that recreates output/ while it is absent makes the publish itself fail.
      .catch((error: unknown) => failures.push(`publish: ${String(error)}`))
      .finally(() => {
        publishing = false
      })
    let answered = 0
    const client = async (id: number) => {
      for (let q = 0; publishing; q++) {
        // A new question each time: the answer cache would otherwise serve it without reading the index.
        const method = q % 2 === 0 ? 'basic' : 'local'
        const res = await fetch(`${server.url}/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: `Who kept the lantern? (${id}.${q})`, method }),
        })
        const body = await res.text()
        if (res.status === 200) answered += 1
        else failures.push(`${method} ${res.status}: ${body.slice(0, 200)}`)
      }
    }
    await Promise.all([publishes, client(1), client(2), client(3)])
    expect(failures).toEqual([])
    expect(answered).toBeGreaterThan(8)
    // Snapshots of the generations no query reads any more are gone (at most the current one stays for reuse).
    expect((await readdir(join(paths.runDir, 'readers'))).length).toBeLessThanOrEqual(1)
  }, 60_000)
})
