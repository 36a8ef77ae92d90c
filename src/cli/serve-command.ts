/** `graphrag serve`: the HTTP API (queries, index jobs, diagnostics) until interrupted. */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import { InvalidArgumentError } from '../vendor/commander.js'
import { ConfigError } from '../errors.js'

interface ServeFlags extends ProjectFlags {
  host?: string
  port?: number
  quiet?: boolean
  /** The --workspace values as given; checked when the command runs (the checks load with the server). */
  workspace: string[]
}

/** --workspace name=root, repeatable: each another project served under /w/{name}/. */
const collectWorkspace = (value: string, previous: string[]): string[] => [...previous, value]

function parsePort(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535')
  return n
}

/** A port in use or not allowed is the user's to change, not a bug: say what to change. */
function listenError(error: unknown): ConfigError | undefined {
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number }
  const where = `${e.address?.includes(':') ? `[${e.address}]` : e.address}:${e.port}`
  const change = 'pass --port <n> (0 = any free port) or set server.port in the settings'
  if (e.code === 'EADDRINUSE')
    return new ConfigError(
      `cannot listen on ${where} (EADDRINUSE): another program uses that port; stop it, or ${change}`,
      {
        cause: e,
      },
    )
  if (e.code === 'EACCES')
    return new ConfigError(`cannot listen on ${where} (EACCES): ports below 1024 need privileges; ${change}`, {
      cause: e,
    })
  if (e.code === 'EADDRNOTAVAIL')
    return new ConfigError(
      `cannot listen on ${where} (EADDRNOTAVAIL): no network interface has that address; pass --host or set server.host`,
      { cause: e },
    )
  return undefined
}

export function registerServeCommand(program: Command): void {
  withProjectOptions(
    program
      .command('serve')
      .description(
        'Serve the HTTP API: queries, index jobs with streamed progress, diagnostics, OpenAI-compatible chat.',
      ),
  )
    .option('--host <address>', 'address to bind (default server.host, 127.0.0.1); others need GRAPHRAG_SERVER_TOKEN')
    .option('--port <n>', 'port (default server.port, 8010; 0 = any free port)', parsePort)
    .option('-q, --quiet', 'no line per request (index jobs are still logged)')
    .option(
      '-w, --workspace <name=root>',
      'also serve the project at <root> under /w/<name>/ (repeatable; adds to server.workspaces)',
      collectWorkspace,
      [],
    )
    .action(async (flags: ServeFlags) => {
      const { startServer } = await import('../server/start.js')
      const { parseWorkspaceFlag } = await import('../server/workspaces.js')
      const server = await startServer({
        root: flags.root,
        configFile: flags.config,
        host: flags.host,
        port: flags.port,
        log: (line) => process.stderr.write(`graphrag: ${new Date().toISOString()} ${line}\n`),
        requestLog: flags.quiet !== true,
        workspaces: flags.workspace.map(parseWorkspaceFlag),
      }).catch((error: unknown) => {
        throw listenError(error) ?? error
      })
      process.stderr.write(
        `graphrag: serving ${flags.root} at ${server.url}\ngraphrag: web UI: ${server.url}/ (API description: ${server.url}/openapi.json)\n`,
      )
      for (const workspace of server.workspaces)
        process.stderr.write(`graphrag: workspace ${workspace.name}: ${workspace.root} at ${workspace.url}\n`)
      if (server.remoteIndex !== undefined) process.stderr.write(`graphrag: index ${server.remoteIndex}\n`)
      for (const problem of server.warnings)
        process.stderr.write(
          `graphrag: warning: ${problem}; queries of that method fail until settings.yaml is fixed (no restart needed)\n`,
        )
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve, resolve)
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
        if (startedThroughNpx(process.env)) stopWhenOrphaned(stop)
      })
    })
}

/**
 * `npx graphrag serve` runs the server as a child of npm's process. Killing that process (a
 * supervisor's SIGKILL, a closed terminal tab) does not reach the child, which would keep the port
 * forever. So when started through npx, the server stops once its parent is gone.
 */
export function startedThroughNpx(env: NodeJS.ProcessEnv): boolean {
  return env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx'
}

const PARENT_POLL_MS = 500

function stopWhenOrphaned(stop: () => void): void {
  const parent = process.ppid
  const orphaned = (why: string) => {
    clearInterval(timer)
    process.stderr.write(
      `graphrag: ${why}; stopping the server (run \`graphrag serve\` directly to keep it under your own control)\n`,
    )
    stop()
  }
  // An orphan is adopted by init or a subreaper, so its parent id changes; an IPC channel (a parent
  // that forked us) also says so by disconnecting.
  const timer = setInterval(() => {
    if (process.ppid !== parent) orphaned(`the npx process that started it (pid ${parent}) has exited`)
  }, PARENT_POLL_MS)
  timer.unref()
  process.once('disconnect', () => orphaned('the parent process closed its IPC channel'))
}
