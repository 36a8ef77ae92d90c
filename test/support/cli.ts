/** Spawns the built CLI (`bin/graphrag.js` over dist/) the way a user runs it. */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from './shared.js'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
      cwd: options.cwd ?? PROJECT_ROOT,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }))
  })
}
