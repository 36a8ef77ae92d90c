// The npm tarball a user installs: `npm pack` must hold everything the CLI needs at run time (dist,
// prompts, the viewer bundle, package.json for --version) and nothing it needs from the clone.
// The quick part runs the unpacked tarball from a folder outside the repository over the clone's
// node_modules; the slow part (GRAPHRAG_SLOW_TESTS=1) installs it with `npm install -g` into a
// temporary prefix, as on a clean machine, and runs the offline demo with it.
import { execFile } from 'node:child_process'
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../src/version.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const run = promisify(execFile)
const NO_KEYS = { GRAPHRAG_API_KEY: undefined, OPENAI_API_KEY: undefined }
const ENV = { ...process.env, CI: 'true', NO_COLOR: '1', ...NO_KEYS }

interface PackedFile {
  path: string
}

/** `npm pack` of the built clone (dist/ is built before the suite) into `dir`; returns the tarball's path and file list. */
async function pack(dir: string): Promise<{ tarball: string; files: string[]; name: string }> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: PROJECT_ROOT,
    env: ENV,
    maxBuffer: 64 * 1024 * 1024,
  })
  const [entry] = JSON.parse(stdout) as [{ filename: string; name: string; files: PackedFile[] }]
  return { tarball: join(dir, entry.filename), files: entry.files.map((f) => f.path), name: entry.name }
}

async function graphrag(bin: readonly string[], args: readonly string[], cwd: string) {
  const [command, ...first] = bin as [string, ...string[]]
  return run(command, [...first, ...args], { cwd, env: ENV, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 })
}

describe('npm pack tarball', () => {
  let work: string
  let packed: Awaited<ReturnType<typeof pack>>

  beforeAll(async () => {
    work = await testdir()
    packed = await pack(work)
  }, 300_000)

  it('is published under a name of our own and keeps the graphrag command', async () => {
    const manifest = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      name: string
      bin: Record<string, string>
    }
    // The bare name `graphrag` on npm belongs to an unrelated package.
    expect(packed.name).not.toBe('graphrag')
    expect(packed.name).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/)
    expect(manifest.bin.graphrag).toBe('bin/graphrag.js')
  })

  it('holds what the CLI reads at run time and no sources or tests', () => {
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/graphrag.js',
        'dist/cli/main.js',
        'dist/api.js',
        'dist/viewer/graph-viewer.js',
        // The tokenizer's prebuilt rank tables (npm run build).
        'dist/llm/bpe/tables/o200k_base.bin',
        'dist/llm/bpe/tables/cl100k_base.bin',
        'prompts/extract_graph.txt',
        // The documented shape of query --json, for programs that read it.
        'docs/schemas/query-response.schema.json',
      ]),
    )
    expect(packed.files.filter((f) => /^(src|test|fixtures|bench)\//.test(f))).toEqual([])
  })

  it('runs --version and init --offline from a folder outside the repository', async () => {
    const unpacked = join(work, 'unpacked')
    await mkdir(unpacked)
    await run('tar', ['-xzf', packed.tarball, '-C', unpacked])
    const pkg = join(unpacked, 'package')
    await symlink(join(PROJECT_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir')
    const bin = [process.execPath, join(pkg, 'bin', 'graphrag.js')]
    const project = join(work, 'first-project')
    await mkdir(project)

    expect((await graphrag(bin, ['--version'], project)).stdout.trim()).toBe(VERSION)
    const init = await graphrag(bin, ['init', '--offline'], project)
    expect(init.stdout).toContain('wrote settings.yaml')
    expect(await readdir(join(project, 'prompts'))).toContain('extract_graph.txt')
  }, 60_000)
})

describe.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)('npm install -g of the tarball on a clean prefix (slow)', () => {
  it('installs, then init, index and query the offline demo in an empty folder', async () => {
    const work = await testdir()
    const { tarball } = await pack(work)
    const prefix = join(work, 'prefix')
    await run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball],
      { cwd: work, env: ENV, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
    )
    const bin = [join(prefix, 'bin', 'graphrag')]
    const project = join(work, 'demo')
    await mkdir(project)

    expect((await graphrag(bin, ['--version'], project)).stdout.trim()).toBe(VERSION)
    await graphrag(bin, ['init', '--offline'], project)
    for (const file of ['01-the-harbour.txt', '02-the-storm.txt'])
      await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', file), join(project, 'input', file))
    await graphrag(bin, ['index'], project)
    const query = await graphrag(bin, ['query', 'Who runs the harbour?', '--method', 'local', '--json'], project)
    const answer = JSON.parse(query.stdout) as { method: string; response: string }
    expect(answer.method).toBe('local')
    expect(answer.response).toMatch(/harbour/i)
  }, 900_000)
})
