/**
 * The run lock on object storage: an object created only if absent (S3 If-None-Match: *, Azure
 * If-None-Match: *), refreshed by its holder every 30 s with a replace-if-unchanged write and
 * deleted on release only while it is still the holder's. A lock whose holder died is taken over:
 * on the same host when its process is gone, from anywhere when it went unrefreshed for longer
 * than the stale age (GRAPHRAG_LOCK_STALE_SECONDS, default 120, at least two heartbeats), again
 * with a conditional write so only one of several runs that found it stale wins.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { GraphragError } from '../../errors.js'
import { parseJson } from '../fs-errors.js'
import {
  goneBecause,
  HEARTBEAT_MS,
  isAlive,
  type LockHolder,
  type RunLock,
  RunLockedError,
  staleAfterMs,
} from '../run-lock.js'
import { ConditionFailedError, type ObjectStore } from './object-store.js'

interface ObjectLockHolder extends LockHolder {
  heartbeat: string
  token: string
}

export async function acquireObjectLock(store: ObjectStore, key: string, command: string): Promise<RunLock> {
  const staleMs = staleAfterMs()
  const where = `${store.location}/${key}`
  const me: ObjectLockHolder = {
    pid: process.pid,
    host: hostname(),
    command,
    started: new Date().toISOString(),
    heartbeat: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    // Read first: a store that ignores conditional writes (some emulators) still refuses a second writer that comes later.
    const current = await store.get(key)
    let etag: string
    let tookOverFrom: LockHolder | undefined
    let because: string | undefined
    try {
      if (current === undefined) etag = await store.put(key, JSON.stringify(me), { ifAbsent: true })
      else {
        const holder = parseJson<ObjectLockHolder>(new TextDecoder().decode(current.body))
        if (holder !== undefined && typeof holder.pid === 'number' && isFresh(holder, staleMs))
          throw new RunLockedError(where, holder)
        etag = await store.put(key, JSON.stringify(me), { ifMatch: current.etag })
        tookOverFrom = holder ?? { pid: 0, host: 'unknown', command: 'unknown', started: 'unknown' }
        because = holder === undefined ? 'left an unreadable lock' : goneBecause(holder, beatAge(holder))
      }
    } catch (error) {
      if (error instanceof ConditionFailedError) continue
      throw error
    }
    const check = await store.get(key)
    if (check === undefined || parseJson<ObjectLockHolder>(new TextDecoder().decode(check.body))?.token !== me.token)
      continue
    return held(store, key, me, check.etag || etag, tookOverFrom, because)
  }
  throw new GraphragError('STORAGE', `could not take the lock ${where}: other runs keep taking it; try again`)
}

/** Alive: refreshed recently, and (on this host, where it can be checked) its process still exists. */
function isFresh(holder: ObjectLockHolder, staleMs: number): boolean {
  return beatAge(holder) <= staleMs && isAlive(holder)
}

/** Milliseconds since the holder's last heartbeat (infinite when it wrote none readable). */
function beatAge(holder: ObjectLockHolder): number {
  const beat = Date.parse(holder.heartbeat ?? holder.started)
  return Number.isFinite(beat) ? Date.now() - beat : Number.POSITIVE_INFINITY
}

function held(
  store: ObjectStore,
  key: string,
  me: ObjectLockHolder,
  etag: string,
  tookOverFrom: LockHolder | undefined,
  tookOverBecause: string | undefined,
): RunLock {
  let current = etag
  let lost = false
  const beat = setInterval(() => {
    const next = { ...me, heartbeat: new Date().toISOString() }
    store.put(key, JSON.stringify(next), { ifMatch: current }).then(
      (tag) => {
        current = tag
      },
      // Lost (taken over after a long pause): release checks. Anything else (the store unreachable for now) is
      // said, naming the lock, and the next beat tries again.
      (error: unknown) => {
        if (error instanceof ConditionFailedError) lost = true
        else
          process.emitWarning(`could not refresh the lock ${store.location}/${key}: ${errorText(error)}; trying again`)
      },
    )
  }, HEARTBEAT_MS)
  beat.unref()
  return {
    path: `${store.location}/${key}`,
    tookOverFrom,
    tookOverBecause,
    async release() {
      clearInterval(beat)
      if (lost) return
      try {
        await store.delete(key, current)
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error
      }
    },
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
