/**
 * Issue 46 item 3, reduced form of the slow kill drill (object-storage.test.ts) for the default suite:
 * `graphrag index` on Azurite killed with -9 at two points of its run leaves the generation published
 * before it in place, readable by a query; the dead run's lock (this host, a PID no longer running)
 * does not stop the re-run, which publishes a generation with the new document. The killed runs and
 * the re-run spawn the built CLI; the first index and the reader run in process (they are not what is
 * tested, and a CLI start costs seconds on a loaded machine).
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { pullGeneration, readPointer } from '../../src/storage/object/generations.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { runCli } from '../support/cli.js'
import { type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js'
import { fastChatSettingsYaml } from '../support/fast-settings.js'
import { comparableTables, spawnCli } from '../support/index-files.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { runQueryInProcess } from '../support/query-command.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()
let llm: FakeLlm
beforeAll(async () => {
  llm = await startFakeLlm()
})
afterAll(() => llm?.close())

describe('index killed with -9 on the object store', () => {
  it('keeps the last published generation readable at each kill; the re-run completes and publishes the new input', async () => {
    const { azurite } = servers
    const container = await azurite.container(`kill${Date.now()}`)
    const blob = (dir: string) =>
      `  type: blob\n  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n  base_dir: ${dir}\n`
    const root = await testdir({
      'settings.yaml': `${fastChatSettingsYaml(llm.baseUrl)}output_storage:\n${blob('output')}`,
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
      'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
    })
    await runIndex({ root, skipValidation: true })
    const output = remoteLocation('output_storage', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      connection_string: azurite.connectionString,
      container_name: container,
      base_dir: 'output',
    })
    const pointer = async () => (await readPointer(output))?.pointer
    const tablesOf = async (generation: string) => {
      const dir = join(await mkdtemp(join(tmpdir(), 'graphrag-kill-')), generation)
      await pullGeneration(output, generation, dir)
      return comparableTables(dir)
    }
    const before = await pointer()
    const published = await tablesOf(before!.generation)

    await writeFile(join(root, 'input', 'c.txt'), 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n')
    for (const at of ['create_communities', 'generate_text_embeddings']) {
      const run = spawnCli(['index', '--root', root, '--skip-validation'])
      await run.waitFor(new RegExp(`Starting workflow: ${at}`))
      run.child.kill('SIGKILL')
      expect((await run.exited).signal).toBe('SIGKILL')
      expect(await pointer(), `killed in ${at}`).toEqual(before)
      expect(await tablesOf(before!.generation)).toEqual(published)
    }
    // A reader answers from the generation left in place.
    const query = await runQueryInProcess(root, 'Who sailed the Windward?', 'basic', { json: false })
    expect(query.stdout.trim().length).toBeGreaterThan(0)

    const rerun = await runCli(['index', '--root', root, '--skip-validation'])
    expect(rerun.code, rerun.stderr).toBe(0)
    const after = await pointer()
    expect(after?.generation).not.toBe(before!.generation)
    expect(rerun.stderr).toMatch(
      /took over the store lock \S+\/output\/\.generations\/lock from PID \d+ .*no longer running/,
    )
    expect(`${rerun.stdout}${rerun.stderr}`).toMatch(/documents +3 rows/)
    expect((await tablesOf(after!.generation))['documents.parquet']).not.toBe(published['documents.parquet'])
    expect((await output.store().list('output/.generations/')).map((o) => o.key)).not.toContain(
      'output/.generations/lock',
    )
  }, 120_000)
})
