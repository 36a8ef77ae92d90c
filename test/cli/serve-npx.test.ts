// `npx graphrag serve`: npm runs the CLI as its child, and killing npm's process does not reach the
// child. A stand-in for npx (a node process that spawns the CLI with npx's environment and is then
// SIGKILLed) checks that the server notices its parent is gone and stops, freeing its port.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startedThroughNpx } from '../../src/cli/serve-command.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const OFFLINE = [
  'embedding_models:',
  '  default_embedding_model:',
  '    model_provider: local',
  '    model: hashing-384',
  '    dimensions: 384',
  '',
].join('\n')

/** Starts `serve` under a parent process; resolves with the server's pid and URL once it listens. */
async function serveUnderParent(
  root: string,
  env: Record<string, string | undefined>,
): Promise<{ parent: ChildProcess; pid: number; url: string; stderr: () => string }> {
  const script = `
    const { spawn } = require('node:child_process')
    const child = spawn(process.execPath, ${JSON.stringify([join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'serve', '--root', root, '--port', '0'])}, { stdio: 'inherit' })
    process.stdout.write(String(child.pid) + '\\n')
    setInterval(() => {}, 1000)`
  const parent = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, npm_command: undefined, npm_lifecycle_event: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  parent.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
  parent.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)
      if (match) {
        clearInterval(timer)
        resolve(match[1]!)
      }
    }, 50)
    parent.on('exit', () => {
      clearInterval(timer)
      reject(new Error(stderr))
    })
  })
  return { parent, pid: Number(stdout.trim()), url, stderr: () => stderr }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs
  while (Date.now() < deadline) {
    if (!alive(pid)) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return !alive(pid)
}

describe('serve started through npx', () => {
  it('recognises npx from the environment npm gives its children', () => {
    expect(startedThroughNpx({ npm_command: 'exec', npm_lifecycle_event: 'npx' })).toBe(true)
    expect(startedThroughNpx({ npm_command: 'run-script', npm_lifecycle_event: 'start' })).toBe(false)
    expect(startedThroughNpx({})).toBe(false)
  })

  it('stops when the npx process is killed, and says why', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE })
    const { parent, pid, url, stderr } = await serveUnderParent(root, {
      npm_command: 'exec',
      npm_lifecycle_event: 'npx',
    })
    expect((await fetch(`${url}/health`)).ok).toBe(true)
    parent.kill('SIGKILL')
    const stopped = await gone(pid, 15_000)
    if (!stopped) process.kill(pid, 'SIGKILL')
    expect(stopped).toBe(true)
    expect(stderr()).toContain('has exited; stopping the server')
  }, 60_000)
})
