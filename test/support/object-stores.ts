/**
 * Real object-storage servers for tests, on ephemeral ports on 127.0.0.1: Azurite (Microsoft's
 * Azure Storage emulator) as a child process, and s3rver (an S3-compatible server) in process.
 * Each helper returns the settings a project needs and the environment its CLI runs need.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlobServiceClient } from '@azure/storage-blob'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll } from 'vitest'
import { snapshotEnv } from './env-snapshot.js'

const require = createRequire(import.meta.url)

/** Azurite's well-known development account (public, documented by Microsoft). */
const AZURITE_ACCOUNT = 'devstoreaccount1'
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

export interface Azurite {
  port: number
  connectionString: string
  /** Creates a container and returns its name. */
  container(name: string): Promise<string>
  stop(): Promise<void>
}

function azuriteConnectionString(port: number): string {
  return `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`
}

export async function startAzurite(): Promise<Azurite> {
  const main = join(require.resolve('azurite/package.json'), '..', 'dist', 'src', 'blob', 'main.js')
  const child = spawn(
    process.execPath,
    [
      main,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      '0',
      '--inMemoryPersistence',
      '--skipApiVersionCheck',
      '--loose',
      '--disableTelemetry',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const port = await listeningPort(child)
  const connectionString = azuriteConnectionString(port)
  return {
    port,
    connectionString,
    async container(name) {
      await BlobServiceClient.fromConnectionString(connectionString).getContainerClient(name).createIfNotExists()
      return name
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`Azurite did not start within 90 s:\n${out}`)), 90_000)
    const onData = (chunk: Buffer): void => {
      out += chunk.toString()
      const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Azurite exited with ${code}:\n${out}`))
    })
  })
}

export interface S3Server {
  endpoint: string
  /** AWS_* variables for the server's fixed test credential (s3rver checks signatures with it). */
  env: Record<string, string>
  bucket(name: string): Promise<string>
  stop(): Promise<void>
}

/** The handle of an S3-compatible server on 127.0.0.1:`port` whose one credential is `key` / `key`. */
function s3Handle(port: number, key: string, stop: () => Promise<void>): S3Server {
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    env: { AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: key, AWS_REGION: 'us-east-1' },
    async bucket(name) {
      const client = new S3Client({
        endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: key, secretAccessKey: key },
      })
      await client.send(new CreateBucketCommand({ Bucket: name }))
      client.destroy()
      return name
    },
    stop,
  }
}

export async function startS3Server(): Promise<S3Server> {
  const S3rver = require('s3rver') as new (
    options: Record<string, unknown>,
  ) => {
    run(): Promise<{ port: number }>
    close(): Promise<void>
  }
  const directory = await mkdtemp(join(tmpdir(), 'graphrag-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const { port } = await server.run()
  return s3Handle(port, 'S3RVER', async () => {
    await server.close()
    await rm(directory, { recursive: true, force: true })
  })
}

/** The remote keys of a storage section, all unset: tests spread their own over it. */
export const NO_REMOTE_KEYS = {
  connection_string: null,
  container_name: null,
  account_url: null,
  bucket: null,
  region: null,
  endpoint_url: null,
}

/**
 * Starts Azurite and s3rver for the test file (unless `enabled` is false) with s3rver's credential
 * in the environment, and stops both afterwards; read them through the returned object.
 */
export function useObjectStoreServers(enabled = true): { azurite: Azurite; s3: S3Server } {
  const servers = {} as { azurite: Azurite; s3: S3Server }
  const restoreEnv = snapshotEnv()
  beforeAll(async () => {
    if (!enabled) return
    ;[servers.azurite, servers.s3] = await Promise.all([startAzurite(), startS3Server()])
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
  return s3Handle(port, 'testing', async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill()
    await exited
  })
}
