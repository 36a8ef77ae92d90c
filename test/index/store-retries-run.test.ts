/**
 * Issue 47 item 10 through a whole run: an index in Azurite behind a proxy answering every fifth
 * request with a 503. Each resend is a line in the run's log (as model retries are), and the
 * published stats.json counts this run's resends. Item 14 on the same index: diagnostics dates
 * the last run by its publish, not by when this machine pulled the generation.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { runIndex } from '../../src/index/run/runner.js'
import { diagnose } from '../../src/server/diagnostics.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { onStorageRetry, type StorageRetry } from '../../src/storage/object/object-store.js'
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js'
import { useObjectStoreServers } from '../support/object-stores.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()
let proxy: FaultProxy | undefined
afterAll(() => proxy?.close())

const SETTINGS = offlineFastSettingsYaml()

describe('a run on a store that fails now and then', () => {
  it('logs every store resend with its reason, counts them in the published stats.json; diagnostics dates the run by its publish', async () => {
    const { azurite } = servers
    const container = await azurite.container(`retries${Date.now()}`)
    proxy = await startFaultProxy(`http://127.0.0.1:${azurite.port}`, { every: 5, faults: [503] })
    const connection = azurite.connectionString.replace(`127.0.0.1:${azurite.port}`, `127.0.0.1:${proxy.port}`)
    const root = await testdir({
      'settings.yaml': `${SETTINGS}output_storage:\n  type: blob\n  connection_string: "${connection}"\n  container_name: ${container}\n  base_dir: output\n`,
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
      'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
    })
    const seen: StorageRetry[] = []
    const stop = onStorageRetry((retry) => seen.push(retry))
    try {
      await runIndex({ root, env: {}, skipValidation: true })
    } finally {
      stop()
    }
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.length).toBe(proxy.injected())
    const log = await readFile(join(root, 'logs', 'indexing-engine.log'), 'utf8')
    const lines = log.split('\n').filter((l) => l.includes('; sent again (try '))
    expect(lines).toHaveLength(seen.length)
    expect(lines[0]).toMatch(
      new RegExp(
        `WARNING.*az://${container}: (GET|PUT|DELETE|HEAD) \\S+ failed \\(HTTP 503\\); sent again \\(try 2\\)`,
      ),
    )
    // Published stats.json counts the resends up to its own upload (the generation's files are up by then).
    const published = await publishedStats(root)
    expect(published.storage_retries).toBeGreaterThan(0)
    expect(published.storage_retries).toBeLessThanOrEqual(seen.length)

    // Item 14: pulled a while after the publish, the generation's files are newer than the publish.
    await new Promise((r) => setTimeout(r, 1_100))
    const report = await diagnose(loadConfig({ root, env: {} }), new ModelProbe())
    expect(report.index.object_storage?.published).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(report.index.completed_at).toBe(report.index.object_storage?.published)
  }, 120_000)
})

/** stats.json of the published generation, as readers get it. */
async function publishedStats(root: string): Promise<{ storage_retries?: number }> {
  const { readableIndexDir } = await import('../../src/storage/generations.js')
  const { settings } = loadConfig({ root, env: {} })
  const dir = await readableIndexDir(settings.output_storage.base_dir)
  return JSON.parse(await readFile(join(dir, 'stats.json'), 'utf8')) as { storage_retries?: number }
}
