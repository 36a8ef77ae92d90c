// What the object stores' conditional writes must guarantee, run against every store that implements
// them (object-store.test.ts on Azurite, s3-conditional.test.ts on moto): create-only and
// replace-if-unchanged writes, the run lock built on them, and the generation pointer.
import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { publishPointer, readPointer } from '../../src/storage/object/generations.js'
import { acquireObjectLock } from '../../src/storage/object/object-lock.js'
import { ConditionFailedError, type ObjectStore } from '../../src/storage/object/object-store.js'
import type { RemoteLocation } from '../../src/storage/object/remote.js'
import { RunLockedError } from '../../src/storage/run-lock.js'

export function conditionalWritesContract(
  name: string,
  open: () => Promise<ObjectStore>,
  /** The output_storage location at `base_dir` in the container or bucket `store` opened. */
  locationIn: (store: ObjectStore, baseDir: string) => RemoteLocation,
): void {
  describe(`conditional writes: ${name}`, () => {
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

    it('the lock refuses a second holder, takes over a lock left unrefreshed on another host, and can be taken again once released', async () => {
      const store = await open()
      const first = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
      await expect(acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')).rejects.toBeInstanceOf(
        RunLockedError,
      )
      await first.release()
      const again = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')
      await again.release()
      const old = new Date(Date.now() - 10 * 60_000).toISOString()
      const gone = {
        pid: 4242,
        host: 'ci-runner-7',
        command: 'graphrag index',
        started: old,
        heartbeat: old,
        token: 't',
      }
      await store.put('idx/.generations/lock', JSON.stringify(gone))
      const taken = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
      expect(taken.tookOverFrom).toMatchObject({ pid: 4242, host: 'ci-runner-7' })
      expect(taken.tookOverBecause).toBe('has not refreshed it for 600 s')
      await taken.release()
      expect(await store.get('idx/.generations/lock')).toBeUndefined()
    })

    it('takes over a lock refreshed just now by a process of this host that is no longer running', async () => {
      const store = await open()
      const now = new Date().toISOString()
      // A pid above the kernel's maximum (2^22) names no process.
      const dead = {
        pid: 4_999_999,
        host: hostname(),
        command: 'graphrag index',
        started: now,
        heartbeat: now,
        token: 't',
      }
      await store.put('idx/.generations/lock', JSON.stringify(dead))
      const taken = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')
      expect(taken.tookOverFrom).toMatchObject({ pid: 4_999_999, host: hostname() })
      expect(taken.tookOverBecause).toBe('is no longer running')
      await taken.release()
    })

    it('honours GRAPHRAG_LOCK_STALE_SECONDS, and refuses one at or below a heartbeat before touching the lock', async () => {
      const store = await open()
      const ninetySecondsAgo = new Date(Date.now() - 90_000).toISOString()
      const holder = { pid: 4242, host: 'ci-runner-8', command: 'graphrag index', token: 't' }
      await store.put(
        'idx/.generations/lock',
        JSON.stringify({ ...holder, started: ninetySecondsAgo, heartbeat: ninetySecondsAgo }),
      )
      const saved = process.env.GRAPHRAG_LOCK_STALE_SECONDS
      try {
        // Default 120 s: a beat 90 s old is a live holder on another host.
        delete process.env.GRAPHRAG_LOCK_STALE_SECONDS
        await expect(acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')).rejects.toBeInstanceOf(
          RunLockedError,
        )
        process.env.GRAPHRAG_LOCK_STALE_SECONDS = '30'
        await expect(acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')).rejects.toThrow(
          /^GRAPHRAG_LOCK_STALE_SECONDS=30: .* must be a number of seconds ≥ 60/,
        )
        expect(JSON.parse(new TextDecoder().decode((await store.get('idx/.generations/lock'))!.body))).toMatchObject(
          holder,
        )
        process.env.GRAPHRAG_LOCK_STALE_SECONDS = '60'
        const taken = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')
        expect(taken.tookOverFrom).toMatchObject({ pid: 4242, host: 'ci-runner-8' })
        await taken.release()
      } finally {
        if (saved === undefined) delete process.env.GRAPHRAG_LOCK_STALE_SECONDS
        else process.env.GRAPHRAG_LOCK_STALE_SECONDS = saved
      }
    })

    it('publishes a generation only over the pointer it started from', async () => {
      const loc = locationIn(await open(), 'idx')
      await publishPointer(loc, 'g1', null, undefined)
      await expect(publishPointer(loc, 'g0', null, undefined)).rejects.toThrow(/another run published the index/)
      const seen = (await readPointer(loc))!
      await publishPointer(loc, 'g2', 'g1', seen.etag)
      await expect(publishPointer(loc, 'g3', 'g1', seen.etag)).rejects.toThrow(/generation g3 was not published/)
      expect((await readPointer(loc))?.pointer).toMatchObject({ generation: 'g2', previous: 'g1' })
    })
  })
}
