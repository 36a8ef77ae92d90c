/**
 * The CLI's `main()` run in this process, with what it wrote to stdout and stderr and its exit code:
 * the same commands, options, messages and exit codes as `runCli` (test/support/cli.ts), without a
 * Node start-up and a fresh load of the source tree, the tokenizer and the native modules per run (about
 * 2 s of CPU for a spawned `graphrag index`). For files that already spawn the CLI once and ask the same
 * command again for what it does, not for how the program starts. Runs one at a time: it swaps
 * process.env, process.stdout.write and process.stderr.write while the command runs.
 */
import { vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { CliResult } from './cli.js'

/** Sets `overrides` in process.env (undefined removes a key) and returns what puts the previous values back. */
function overrideEnv(overrides: Record<string, string | undefined>): () => void {
  const previous = Object.entries(overrides).map(([key]) => [key, process.env[key]] as const)
  const assign = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  for (const [key, value] of Object.entries(overrides)) assign(key, value)
  return () => {
    for (const [key, value] of previous) assign(key, value)
  }
}

/** main() adds an 'error' listener to stdout and stderr per run (EPIPE handling): removed after it, or Node warns after ten runs. */
function restoreErrorListeners(): () => void {
  const streams = [process.stdout, process.stderr]
  const before = streams.map((stream) => new Set(stream.listeners('error')))
  return () => {
    streams.forEach((stream, i) => {
      for (const listener of stream.listeners('error'))
        if (!before[i]!.has(listener)) stream.off('error', listener as (error: Error) => void)
    })
  }
}

let running = false

export async function runCliInProcess(
  args: readonly string[],
  options: { env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  if (running) throw new Error('runCliInProcess: one command at a time (it swaps process.env and the output streams)')
  running = true
  let stdout = ''
  let stderr = ''
  const restoreListeners = restoreErrorListeners()
  const restoreEnv = overrideEnv({ CI: 'true', NO_COLOR: '1', ...options.env })
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString())
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
      callback?.()
      return true
    }
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture((t) => (stdout += t)))
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture((t) => (stderr += t)))
  process.exitCode = undefined
  try {
    const code = await main(['node', 'graphrag', ...args])
    return { code, stdout, stderr }
  } finally {
    process.exitCode = undefined
    out.mockRestore()
    err.mockRestore()
    restoreEnv()
    restoreListeners()
    running = false
  }
}
