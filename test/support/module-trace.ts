/**
 * Runs the built CLI with a module-resolution hook that records every file the process loads, for
 * the tests that keep start-up lean (test/cli/lazy-startup.test.ts, query-startup.test.ts).
 */
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT } from './shared.js'
import { testdir } from './testdir.js'

interface TracedRun {
  status: number | null
  stdout: string
  stderr: string
  /** Every file URL the CLI resolved, relative to the project root (`/dist/cli/main.js`, `/node_modules/...`). */
  loaded: string[]
}

export type TraceCli = (args: readonly string[]) => TracedRun

/** Writes the hook once and returns a runner of `graphrag args` under it. */
export async function moduleTracer(): Promise<TraceCli> {
  const dir = await testdir()
  const resolveHook = join(dir, 'hooks.mjs')
  await writeFile(
    resolveHook,
    "export async function resolve(specifier, context, next) {\n  const result = await next(specifier, context)\n  if (result.url.startsWith('file:')) process.stderr.write(`module: ${result.url}\\n`)\n  return result\n}\n",
  )
  const hooks = join(dir, 'register.mjs')
  await writeFile(
    hooks,
    `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(resolveHook).href)})\n`,
  )
  return (args) => {
    const result = spawnSync(process.execPath, ['--import', hooks, join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    const lines = result.stderr.split('\n')
    return {
      status: result.status,
      stdout: result.stdout,
      stderr: lines.filter((l) => !l.startsWith('module: ')).join('\n'),
      loaded: lines
        .filter((l) => l.startsWith('module: '))
        .map((l) => l.slice('module: '.length).replace(pathToFileURL(PROJECT_ROOT).href, '')),
    }
  }
}
