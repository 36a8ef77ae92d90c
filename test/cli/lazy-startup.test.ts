// `graphrag --version` and `--help` must not load what the commands need when they run (LanceDB,
// Arrow/Parquet, the tokenizer, the NLP model, the OpenAI client, the server, the spinner, the file
// readers): a register…Command function declares options and imports its module inside the action.
// A module-resolution hook records every module the CLI loads; `npm run bench:startup` has the timings.
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const HEAVY =
  /node_modules\/(@lancedb|apache-arrow|parquet-wasm|tiktoken|wink-|openai|hono|@hono|ora|unpdf|mammoth|read-excel-file|htmlparser2|graphology|yaml|fflate)\//

let hooks: string

/** Every file URL the CLI resolves while running `args`. */
function modulesLoadedBy(args: readonly string[]): string[] {
  const result = spawnSync(process.execPath, ['--import', hooks, join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, GRAPHRAG_TRACE_MODULES: '1' },
  })
  expect(result.status, result.stderr).toBe(0)
  return result.stderr
    .split('\n')
    .filter((l) => l.startsWith('module: '))
    .map((l) => l.slice('module: '.length).replace(pathToFileURL(PROJECT_ROOT).href, ''))
}

describe('CLI start-up loads only the command declarations', () => {
  beforeAll(async () => {
    const dir = await testdir()
    const resolveHook = join(dir, 'hooks.mjs')
    await writeFile(
      resolveHook,
      "export async function resolve(specifier, context, next) {\n  const result = await next(specifier, context)\n  if (result.url.startsWith('file:')) process.stderr.write(`module: ${result.url}\\n`)\n  return result\n}\n",
    )
    hooks = join(dir, 'register.mjs')
    await writeFile(
      hooks,
      `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(resolveHook).href)})\n`,
    )
  })

  it.each([['--version'], ['--help'], ['query', '--help']])('graphrag %s', (...args) => {
    const loaded = modulesLoadedBy(args)
    expect(loaded).toContain('/dist/cli/main.js')
    expect(loaded.filter((url) => HEAVY.test(url))).toEqual([])
    // Of our own code: the CLI's command declarations and the three leaves they need.
    const ours = loaded.filter((url) => url.startsWith('/dist/'))
    expect(
      ours.filter((url) => !/^\/dist\/(cli\/[a-z-]+\.js|errors\.js|version\.js|config\/range\.js)$/.test(url)),
    ).toEqual([])
  })
})
