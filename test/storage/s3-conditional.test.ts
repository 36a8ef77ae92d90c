/**
 * The S3 backend's conditional writes, lock and pointer against moto's S3 server, which (unlike
 * s3rver, used elsewhere) implements If-None-Match and If-Match as AWS S3 does. Skips, saying so,
 * where moto 5.1 or later is not installed (`pip install 'moto[server]'`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { publishPointer, readPointer } from '../../src/storage/object/generations.js'
import { acquireObjectLock } from '../../src/storage/object/object-lock.js'
import { ConditionFailedError } from '../../src/storage/object/object-store.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { RunLockedError } from '../../src/storage/run-lock.js'
import { NO_REMOTE_KEYS, type S3Server, startMoto } from '../support/object-stores.js'

const moto = await startMoto()
if (moto === undefined)
  console.warn('skipped: moto 5.1+ is not installed, so S3 conditional writes are not checked here')

describe.skipIf(moto === undefined)('S3 conditional writes on moto', () => {
  const server = moto as S3Server
  const saved = { ...process.env }
  beforeAll(() => {
    Object.assign(process.env, server.env)
  })
  afterAll(async () => {
    process.env = saved
    await server.stop()
  })
  let n = 0
  const open = async () =>
    new S3Store({ bucket: await server.bucket(`moto-${Date.now()}-${n++}`), endpointUrl: server.endpoint })

  it('create-only and replace-if-unchanged writes refuse a second writer', async () => {
    const store = await open()
    const etag = await store.put('lock', 'first', { ifAbsent: true })
    await expect(store.put('lock', 'second', { ifAbsent: true })).rejects.toBeInstanceOf(ConditionFailedError)
    const next = await store.put('lock', 'third', { ifMatch: etag })
    await expect(store.put('lock', 'stale', { ifMatch: etag })).rejects.toBeInstanceOf(ConditionFailedError)
    await expect(store.delete('lock', etag)).rejects.toBeInstanceOf(ConditionFailedError)
    await store.delete('lock', next)
    expect(await store.get('lock')).toBeUndefined()
  })

  it('the run lock refuses a second holder and is free again once released', async () => {
    const store = await open()
    const first = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
    await expect(acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')).rejects.toBeInstanceOf(
      RunLockedError,
    )
    await first.release()
    const again = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')
    await again.release()
    expect(await store.get('idx/.generations/lock')).toBeUndefined()
  })

  it('publishes a generation only over the pointer it started from', async () => {
    const bucket = (await open()).location.slice('s3://'.length)
    const loc = remoteLocation('output_storage', {
      ...NO_REMOTE_KEYS,
      type: 's3',
      base_dir: 'idx',
      bucket,
      endpoint_url: server.endpoint,
    })
    await publishPointer(loc, 'g1', null, undefined)
    await expect(publishPointer(loc, 'g0', null, undefined)).rejects.toThrow(/another run published the index/)
    const seen = (await readPointer(loc))!
    await publishPointer(loc, 'g2', 'g1', seen.etag)
    await expect(publishPointer(loc, 'g3', 'g1', seen.etag)).rejects.toThrow(/generation g3 was not published/)
    expect((await readPointer(loc))?.pointer).toMatchObject({ generation: 'g2', previous: 'g1' })
  })
})
