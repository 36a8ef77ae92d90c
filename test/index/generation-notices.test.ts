/**
 * Issue 47 item 9 on Azurite: the notices a run prints as it takes the index say which lock was taken
 * over and why, and `--no-resume` neither restores an unfinished run's saved work nor says it does.
 */
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { validateSettings } from '../../src/config/validate.js'
import type { Settings } from '../../src/config/schema.js'
import { beginGeneration } from '../../src/index/run/index-generation.js'
import { remoteAt } from '../../src/storage/object/remote.js'
import { workSaver } from '../../src/storage/object/work-state.js'
import { useObjectStoreServers } from '../support/object-stores.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()

/** Settings of a project on a machine of its own (its own root and mirror) with the index in `container`. */
async function blobSettings(container?: string): Promise<Settings> {
  container ??= await servers.azurite.container(`notices${Date.now()}`)
  const output = { type: 'blob', connection_string: servers.azurite.connectionString, container_name: container }
  const result = validateSettings({ output_storage: { ...output, base_dir: 'output' } }, { root: await testdir() })
  if (!result.ok) throw new Error(result.errors.join('\n'))
  return result.settings
}

/** Saves an unfinished run's work in the store, as a run on another machine would have. */
async function saveWork(settings: Settings): Promise<void> {
  const dir = join(await testdir(), 'work')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'entities.parquet'), 'saved by the other machine')
  const saver = workSaver(remoteAt(settings.output_storage.base_dir)!, null, dir, undefined)
  saver.schedule()
  await saver.flush()
}

describe('a run taking an index in object storage', () => {
  it('with --no-resume does not restore the saved work and does not say it resumes; without it does both', async () => {
    const settings = await blobSettings()
    await saveWork(settings)
    const resumed = await beginGeneration(settings, 'graphrag index')
    try {
      expect(resumed.notices).toEqual([expect.stringMatching(/^resuming the unfinished run saved in az:\/\//)])
      expect(existsSync(join(resumed.settings.output_storage.base_dir, 'entities.parquet'))).toBe(true)
    } finally {
      await resumed.release()
    }
    // Another machine, the same saved work, started afresh.
    const elsewhere = await blobSettings(settings.output_storage.container_name!)
    const fresh = await beginGeneration(elsewhere, 'graphrag index', { resume: false })
    try {
      expect(fresh.notices).toEqual([])
      expect(existsSync(join(fresh.settings.output_storage.base_dir, 'entities.parquet'))).toBe(false)
    } finally {
      await fresh.release()
    }
  })

  it("names the lock taken over (the store's or the local mirror's), the holder's host and why it was judged gone", async () => {
    const settings = await blobSettings()
    const loc = remoteAt(settings.output_storage.base_dir)!
    const old = new Date(Date.now() - 300_000).toISOString()
    const away = { pid: 4242, host: 'ci-job-41', command: 'graphrag index', started: old, heartbeat: old, token: 't' }
    await loc.store().put('output/.generations/lock', JSON.stringify(away))
    const here = { pid: 2 ** 22 + 17, host: hostname(), command: 'graphrag update', started: old }
    const local = join(
      settings.output_storage.base_dir,
      '..',
      `.${settings.output_storage.base_dir.split('/').pop()}.run`,
    )
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'lock'), `${JSON.stringify(here)}\n`)
    const run = await beginGeneration(settings, 'graphrag index')
    try {
      expect(run.notices).toEqual([
        `took over the store lock ${loc.url}/.generations/lock from PID 4242 on host ci-job-41 (\`graphrag index\`, started ${old}), which has not refreshed it for 300 s`,
        `took over the local mirror's lock on this machine from PID ${here.pid} on host ${hostname()} (\`graphrag update\`, started ${old}), which is no longer running`,
      ])
    } finally {
      await run.release()
    }
  })
})
