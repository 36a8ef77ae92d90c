/**
 * Object-storage servers for test files: the run's shared Azurite and s3rver (started once by the
 * globalSetup object-store-servers.ts) or, where a run has none, the file's own; and moto for S3's
 * conditional writes. The servers themselves are in store-servers.ts.
 */
import { spawn, spawnSync } from 'node:child_process'
import { afterAll, beforeAll, inject } from 'vitest'
import { snapshotEnv } from './env-snapshot.js'
import {
  type Azurite,
  azuriteAt,
  S3RVER_KEY,
  type S3Server,
  s3At,
  startAzurite,
  startS3Server,
} from './store-servers.js'

export type { Azurite, S3Server }

/** The remote keys of a storage section, all unset: tests spread their own over it. */
export const NO_REMOTE_KEYS = {
  connection_string: null,
  container_name: null,
  account_url: null,
  bucket: null,
  region: null,
  endpoint_url: null,
}

/** Stopping a shared server is the run's business (object-store-servers.ts), not a file's. */
const runStopsIt = async (): Promise<void> => {}

/** The run's shared servers when its globalSetup started them (vitest inject), else servers of the file's own. */
async function objectStoreServers(): Promise<{ azurite: Azurite; s3: S3Server }> {
  const shared = inject('objectStorePorts')
  if (shared !== undefined)
    return { azurite: azuriteAt(shared.azurite, runStopsIt), s3: s3At(shared.s3, S3RVER_KEY, runStopsIt) }
  const [azurite, s3] = await Promise.all([startAzurite(), startS3Server()])
  return { azurite, s3 }
}

/**
 * Azurite and s3rver for the test file (unless `enabled` is false), with s3rver's credential in the
 * environment until the file ends; read them through the returned object. Containers and buckets
 * the file makes are its own (their names get a suffix of the file's), on servers the whole run shares.
 */
export function useObjectStoreServers(enabled = true): { azurite: Azurite; s3: S3Server } {
  const servers = {} as { azurite: Azurite; s3: S3Server }
  const restoreEnv = snapshotEnv()
  beforeAll(async () => {
    if (!enabled) return
    Object.assign(servers, await objectStoreServers())
    Object.assign(process.env, servers.s3.env)
  }, 120_000)
  afterAll(async () => {
    restoreEnv()
    await Promise.all([servers.azurite?.stop(), servers.s3?.stop()])
  })
  return servers
}

/**
 * moto's S3 server (Python; `python3 -m moto.server`), when this machine has it (npm and Debian do
 * not offer it). Unlike s3rver it honours conditional writes (If-None-Match / If-Match), so the lock
 * and pointer rules of the S3 backend can be checked against S3's own semantics. Resolves undefined
 * when moto (5.1 or later) is not installed.
 */
export async function startMoto(): Promise<S3Server | undefined> {
  // Conditional writes came to S3 (and to moto) in 2024; older moto (e.g. Debian's) accepts and ignores them.
  const probe = spawnSync('python3', ['-c', 'import moto; print(moto.__version__)'], { encoding: 'utf8' })
  const [major = 0, minor = 0] = (probe.stdout ?? '').trim().split('.').map(Number)
  if (probe.status !== 0 || major < 5 || (major === 5 && minor < 1)) return undefined
  const child = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const port = await new Promise<number | undefined>((resolve) => {
    let out = ''
    const seen = (chunk: Buffer) => {
      out += chunk.toString()
      const match = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (match !== null) resolve(Number(match[1]))
    }
    child.stdout?.on('data', seen)
    child.stderr?.on('data', seen)
    child.on('error', () => resolve(undefined))
    child.on('exit', () => resolve(undefined))
  })
  if (port === undefined) return undefined
  return s3At(port, 'testing', async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill()
    await exited
  })
}
