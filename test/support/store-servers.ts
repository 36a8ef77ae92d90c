/**
 * Real object-storage servers on ephemeral ports on 127.0.0.1, each a child process: Azurite
 * (Microsoft's Azure Storage emulator) and s3rver (an S3-compatible server). Not in vitest's own
 * process, where the run's globalSetup (object-store-servers.ts) starts them: a busy main process
 * would answer late, and the store-timeout tests count every late answer as a resend. No vitest test
 * API here; test files reach the servers through object-stores.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlobServiceClient } from '@azure/storage-blob'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'

const require = createRequire(import.meta.url)

/** Where the run's shared servers listen, handed from the globalSetup to the workers (vitest provide/inject). */
interface SharedStorePorts {
  azurite: number
  s3: number
}

declare module 'vitest' {
  export interface ProvidedContext {
    objectStorePorts: SharedStorePorts | undefined
  }
}

/** Azurite's well-known development account (public, documented by Microsoft). */
const AZURITE_ACCOUNT = 'devstoreaccount1'
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
/** s3rver's one credential (it checks signatures with it). */
export const S3RVER_KEY = 'S3RVER'

export interface Azurite {
  port: number
  connectionString: string
  /**
   * Creates a container named `name` plus a suffix of this handle's own and returns that name: files
   * that share the run's server never meet in one container, so use the name returned.
   */
  container(name: string): Promise<string>
  stop(): Promise<void>
}

export interface S3Server {
  endpoint: string
  /** AWS_* variables for the server's fixed test credential (s3rver checks signatures with it). */
  env: Record<string, string>
  /** Creates a bucket named `name` plus a suffix of this handle's own and returns that name (see Azurite). */
  bucket(name: string): Promise<string>
  stop(): Promise<void>
}

/** A suffix per handle: each test file makes its own handles, so its containers and buckets are its own. */
function nameSuffix(): (name: string) => string {
  const tag = randomBytes(4).toString('hex')
  return (name) => `${name}-${tag}`
}

/** The handle of the Azurite server on 127.0.0.1:`port`; `stop` is what stopping it means to the caller. */
export function azuriteAt(port: number, stop: () => Promise<void>): Azurite {
  const connectionString = `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`
  const unique = nameSuffix()
  return {
    port,
    connectionString,
    async container(name) {
      const container = unique(name)
      await BlobServiceClient.fromConnectionString(connectionString).getContainerClient(container).createIfNotExists()
      return container
    },
    stop,
  }
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
  const port = await listeningPort(child, 'Azurite', /listens on http:\/\/127\.0\.0\.1:(\d+)/)
  return azuriteAt(port, () => stopChild(child))
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}

/** The port the child prints once it listens (`pattern`'s first group). */
function listeningPort(child: ChildProcess, name: string, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 90 s:\n${out}`)), 90_000)
    const onData = (chunk: Buffer): void => {
      out += chunk.toString()
      const match = pattern.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited with ${code}:\n${out}`))
    })
  })
}

/** The handle of an S3-compatible server on 127.0.0.1:`port` whose one credential is `key` / `key`. */
export function s3At(port: number, key: string, stop: () => Promise<void>): S3Server {
  const endpoint = `http://127.0.0.1:${port}`
  const unique = nameSuffix()
  return {
    endpoint,
    env: { AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: key, AWS_REGION: 'us-east-1' },
    async bucket(name) {
      const bucket = unique(name)
      const client = new S3Client({
        endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: key, secretAccessKey: key },
      })
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
      client.destroy()
      return bucket
    },
    stop,
  }
}

/** s3rver in a node of its own (CommonJS, for `node -e`): arguments are the package and the data folder. */
const S3RVER_MAIN = `
const S3rver = require(process.argv[1])
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[2] })
server.run().then(({ port }) => console.log('s3rver listens on port ' + port))
process.once('SIGTERM', () => server.close().then(() => process.exit(0)))
`

export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'graphrag-s3rver-'))
  const child = spawn(process.execPath, ['-e', S3RVER_MAIN, require.resolve('s3rver'), directory], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const port = await listeningPort(child, 's3rver', /s3rver listens on port (\d+)/)
  return s3At(port, S3RVER_KEY, async () => {
    await stopChild(child)
    await rm(directory, { recursive: true, force: true })
  })
}
