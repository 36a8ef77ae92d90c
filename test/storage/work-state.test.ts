/**
 * An unfinished run's work saved in object storage (Azurite): saved after each workflow, restored
 * on another machine, unchanged files sent once, and a run whose lock was taken over cannot
 * overwrite the work its successor saved.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { beginRemoteRun } from '../../src/storage/object/remote-index.js'
import { registerRemote, remoteLocation } from '../../src/storage/object/remote.js'
import { restoreWork, workSaver } from '../../src/storage/object/work-state.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()

async function location() {
  const container = await servers.azurite.container(`work${Date.now()}`)
  return remoteLocation('output_storage', {
    ...NO_REMOTE_KEYS,
    type: 'blob',
    base_dir: 'output',
    connection_string: servers.azurite.connectionString,
    container_name: container,
  })
}

async function folder(files: Record<string, string>): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
  await mkdir(join(dir, 'lancedb'), { recursive: true })
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
  return dir
}

describe('work saved in object storage', () => {
  it('is restored on another machine for the same published generation only, with unchanged files sent once', async () => {
    const loc = await location()
    const work = await folder({ 'entities.parquet': 'E1', '.graphrag-resume.json': '{}', 'lancedb/a.lance': 'L' })
    const saver = workSaver(loc, 'gen-1', work, undefined)
    saver.schedule()
    await saver.flush()
    const blobs = async () => (await loc.store().list('output/.generations/.work/blobs/')).length
    expect(await blobs()).toBe(3)
    await writeFile(join(work, 'entities.parquet'), 'E2')
    saver.schedule()
    await saver.flush()
    // One new blob for the changed file, the replaced one deleted.
    expect(await blobs()).toBe(3)
    expect(saver.error).toBeUndefined()

    const elsewhere = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
    expect((await restoreWork(loc, 'gen-2', elsewhere, false)).restored, 'another origin').toBe(false)
    expect((await restoreWork(loc, 'gen-1', elsewhere, false)).restored).toBe(true)
    expect(await readFile(join(elsewhere, 'entities.parquet'), 'utf8')).toBe('E2')
    expect(await readFile(join(elsewhere, 'lancedb', 'a.lance'), 'utf8')).toBe('L')
    // The machine that saved it keeps its own folder (the same work, or newer).
    expect((await restoreWork(loc, 'gen-1', work, true)).restored).toBe(false)
  })

  it('a marker of the restored state that cannot be read stops the restore naming it, rather than replacing newer local work', async () => {
    const loc = await location()
    const work = await folder({ 'entities.parquet': 'E-local' })
    const saver = workSaver(loc, 'gen-1', work, undefined)
    saver.schedule()
    await saver.flush()
    await rm(`${work}.saved`, { force: true })
    await mkdir(`${work}.saved`)
    await expect(restoreWork(loc, 'gen-1', work, true)).rejects.toThrow(/cannot read .*work\.saved: EISDIR/)
    expect(await readFile(join(work, 'entities.parquet'), 'utf8')).toBe('E-local')
  })

  it('a run whose lock was taken over cannot overwrite the work its successor saved', async () => {
    const loc = await location()
    const first = await folder({ 'entities.parquet': 'old run' })
    const old = workSaver(loc, null, first, undefined)
    old.schedule()
    await old.flush()
    // The successor restores it and saves its own progress.
    const second = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
    const { etag } = await restoreWork(loc, null, second, false)
    await writeFile(join(second, 'entities.parquet'), 'successor')
    const successor = workSaver(loc, null, second, etag)
    successor.schedule()
    await successor.flush()
    expect(successor.error).toBeUndefined()
    // The old run wakes up and tries to save: refused, and it saves no more.
    await writeFile(join(first, 'entities.parquet'), 'zombie')
    old.schedule()
    await old.flush()
    expect(old.error).toBeDefined()
    const third = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
    await restoreWork(loc, null, third, false)
    expect(await readFile(join(third, 'entities.parquet'), 'utf8')).toBe('successor')
  })

  it('a run that could not save its work says so when it finishes', async () => {
    const loc = await location()
    const root = await mkdtemp(join(tmpdir(), 'graphrag-work-'))
    const mirror = join(root, 'output')
    registerRemote(mirror, loc)
    const local = join(root, 'plain')
    const run = (await beginRemoteRun(
      { output: mirror, reporting: local, updateOutput: local, cache: undefined },
      'graphrag index',
    ))!
    const work = await folder({ 'entities.parquet': 'E1' })
    await run.openWork(work, false)
    // Another run's state appears meanwhile: this run's conditional save of its state is refused.
    await loc
      .store()
      .put('output/.generations/.work/state.json', JSON.stringify({ origin: null, id: 'other', saved: '', files: {} }))
    run.checkpoint()
    const warnings = await run.finish()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^could not save this run's work in az:\/\/work\d+-[0-9a-f]{8}\/output\/\.generations\/\.work \(.*changed by another writer\)/,
    )
  })
})
