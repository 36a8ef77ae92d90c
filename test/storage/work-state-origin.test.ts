/**
 * Work saved for another published generation is stale: restoreWork does not restore it but hands
 * back its ETag, so the new run's first save replaces exactly that state (issue 46, item 3: losing
 * the ETag in this branch made every such save fail its condition, unnoticed).
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { restoreWork, workSaver } from '../../src/storage/object/work-state.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()

async function work(text: string): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'entities.parquet'), text)
  return dir
}

describe('work saved for another origin', () => {
  it('is not restored, and its ETag lets the next run save over it', async () => {
    const loc = remoteLocation('output_storage', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: 'output',
      connection_string: servers.azurite.connectionString,
      container_name: await servers.azurite.container(`origin${Date.now()}`),
    })
    const first = workSaver(loc, 'gen-1', await work('old'), undefined)
    first.schedule()
    await first.flush()
    expect(first.error).toBeUndefined()

    const next = await work('new')
    const found = await restoreWork(loc, 'gen-2', next, false)
    expect(found.restored).toBe(false)
    expect(found.etag).toBeDefined()
    const saver = workSaver(loc, 'gen-2', next, found.etag)
    saver.schedule()
    await saver.flush()
    expect(saver.error).toBeUndefined()

    const elsewhere = join(await mkdtemp(join(tmpdir(), 'graphrag-work-')), 'work')
    expect((await restoreWork(loc, 'gen-2', elsewhere, false)).restored).toBe(true)
    expect(await readFile(join(elsewhere, 'entities.parquet'), 'utf8')).toBe('new')
  })
})
