/** Starts `graphrag serve`: checks the address/token rule, builds the parts and listens. */
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../config/index.js'
import { ConfigError } from '../errors.js'
import { watchPublished } from '../storage/object/remote-index.js'
import { createApp } from './app.js'
import { IndexJobs } from './index-jobs.js'
import { ModelProbe } from './model-probe.js'
import { QueryService, type Project } from './query-service.js'

export interface ServeOptions extends Project {
  /** Default: server.host from the settings (127.0.0.1). */
  host?: string
  /** Default: server.port from the settings (8010); 0 picks a free port. */
  port?: number
  /** Default: GRAPHRAG_SERVER_TOKEN from env. */
  token?: string
}

export interface RunningServer {
  url: string
  host: string
  port: number
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = options.env ?? process.env
  const { settings } = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  const host = options.host ?? settings.server.host
  const port = options.port ?? settings.server.port
  const token = options.token ?? (env.GRAPHRAG_SERVER_TOKEN?.trim() || undefined)
  if (!LOOPBACK.has(host) && token === undefined) {
    throw new ConfigError(
      `binding ${host} exposes the index beyond this machine: set GRAPHRAG_SERVER_TOKEN (clients then send Authorization: Bearer <token>)`,
    )
  }
  const sized = new QueryService(options, {
    embeddings: settings.server.embedding_cache_size,
    answers: settings.server.answer_cache_size,
  })
  // A finished job changes the index: answers cached from the previous one would be stale.
  const jobs = new IndexJobs(options, () => sized.answers.clear())
  // An index in object storage may be republished by another machine: poll its pointer.
  const stopWatching = watchPublished(settings.output_storage.base_dir, () => sized.answers.clear())
  const app = createApp({
    queries: sized,
    jobs,
    probe: new ModelProbe(),
    token,
    maxBodyBytes: settings.server.max_body_bytes,
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s))
    s.once('error', reject)
  })
  const actual = (server.address() as AddressInfo).port
  const shown = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shown}:${actual}`,
    host,
    port: actual,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopWatching()
        if ('closeAllConnections' in server) server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
