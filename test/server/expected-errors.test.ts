/**
 * Only "not found" is read as absent (issue 46, item 5): a stats.json, an ingest path or a marker
 * file that exists but cannot be read (here a symlink loop: ELOOP, as root cannot provoke EACCES)
 * is a failure that names its path, not a silent "absent", an empty root list or a 404.
 */
import { mkdir, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { readMarker } from '../../src/storage/fs-errors.js'
import { prunePulled } from '../../src/storage/object/generations.js'
import { noModelSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = noModelSettingsYaml(['server:', '  ingest_roots: [shared, looped-root]'])

/** A symlink to itself: every stat, realpath and read of it fails with ELOOP. */
const loop = (path: string) => symlink(path, path)

describe('errors other than "not found" surface with their path', () => {
  let root: string
  let server: RunningServer
  beforeAll(async () => {
    root = await testdir({ 'settings.yaml': SETTINGS, 'shared/notes/a.txt': 'Ada kept the light.\n' })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  const ingest = (path: string) =>
    fetch(`${server.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    })
  const message = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message

  it('POST /ingest: a missing path is a 404, an unresolvable one a 500 naming it, and so is a broken root', async () => {
    expect((await ingest('shared/none.txt')).status).toBe(404)
    await loop(join(root, 'shared', 'loop.txt'))
    const looped = await ingest('shared/loop.txt')
    expect(looped.status).toBe(500)
    expect(await message(looped)).toMatch(/cannot resolve .*shared\/loop\.txt: ELOOP/)

    await loop(join(root, 'looped-root'))
    const badRoot = await ingest('shared/notes/a.txt')
    expect(badRoot.status).toBe(500)
    expect(await message(badRoot)).toMatch(/cannot resolve .*looped-root: ELOOP/)
    await rm(join(root, 'looped-root'))
  })

  it('POST /ingest of a folder: a link to nothing is skipped (not a fault), an unresolvable entry is a 500 naming it', async () => {
    await mkdir(join(root, 'shared', 'walk'), { recursive: true })
    await symlink(join(root, 'shared', 'walk', 'gone.txt'), join(root, 'shared', 'walk', 'dangling.txt'))
    const skipped = await ingest('shared/walk')
    expect(skipped.status).toBe(400)
    expect(await message(skipped)).toContain('no file there that graphrag reads (1 skipped)')
    await loop(join(root, 'shared', 'walk', 'loop.txt'))
    const looped = await ingest('shared/walk')
    expect(looped.status).toBe(500)
    expect(await message(looped)).toMatch(/cannot resolve .*shared\/walk\/loop\.txt: ELOOP/)
    await rm(join(root, 'shared', 'walk'), { recursive: true })
  })

  it('GET /ui/graph: an unreadable stats.json is named, not taken for "no index yet"', async () => {
    await mkdir(join(root, 'output'), { recursive: true })
    await loop(join(root, 'output', 'stats.json'))
    const res = await fetch(`${server.url}/ui/graph`)
    expect(res.status).toBe(500)
    expect(await message(res)).toMatch(/cannot read .*output\/stats\.json: ELOOP/)
  })

  it('readMarker: absent is undefined, unreadable throws naming the file', async () => {
    const dir = await testdir({ 'current.txt': 'gen-7\n' })
    expect(await readMarker(join(dir, 'current.txt'))).toBe('gen-7')
    expect(await readMarker(join(dir, 'none.txt'))).toBeUndefined()
    await loop(join(dir, 'looped.txt'))
    await expect(readMarker(join(dir, 'looped.txt'))).rejects.toThrow(/cannot read .*looped\.txt: ELOOP/)
  })

  it('prunePulled: no pulled folder is nothing to prune, an unreadable one is named', async () => {
    const dir = await testdir({})
    await expect(prunePulled(join(dir, 'mirror'), [])).resolves.toBeUndefined()
    await loop(join(dir, 'looped.pulled'))
    await expect(prunePulled(join(dir, 'looped'), [])).rejects.toThrow(/cannot list .*looped\.pulled: ELOOP/)
  })
})
