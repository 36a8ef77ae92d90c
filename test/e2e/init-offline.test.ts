import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

const NO_KEYS = { GRAPHRAG_API_KEY: undefined, OPENAI_API_KEY: undefined }

const PEOPLE = ['Captain Ada Morrow', 'Harbourmaster Felix Grey', 'Doctor Ines Calder', 'Tomas Reyes']
const PLACES = ['North Pier', 'Gull Island', 'the Salt Exchange', 'Lantern Street']

/** A few thousand words with recurring names, so the fast method finds phrases shared across chunks. */
function story(): string {
  const lines: string[] = []
  for (let i = 0; i < 120; i++) {
    const who = PEOPLE[i % PEOPLE.length]!
    const other = PEOPLE[(i * 3 + 1) % PEOPLE.length]!
    const where = PLACES[(i * 7) % PLACES.length]!
    lines.push(`${who} met ${other} at ${where} to talk about the ferry Kittiwake and the winter fish market.`)
  }
  return lines.join('\n')
}

/** Every file under `dir` with its modification time and content hash, to prove a command changed nothing. */
async function snapshotTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()
  return Promise.all(
    files.map(
      async (f) =>
        `${f} ${(await stat(f)).mtimeMs} ${createHash('sha256')
          .update(await readFile(f))
          .digest('hex')}`,
    ),
  )
}

describe('graphrag init --offline, then index with no key', () => {
  let root: string
  let init: CliResult
  let index: CliResult

  beforeAll(async () => {
    root = await testdir({})
    init = await runCli(['init', '--offline', '--root', root], { env: NO_KEYS })
    await writeFile(join(root, 'input', 'harbour.txt'), story())
    index = await runCli(['index', '--root', root], { env: NO_KEYS })
  }, 300_000)

  it('writes settings, prompts and input/ but no .env', async () => {
    expect(init.code, init.stderr).toBe(0)
    expect(init.stdout).toContain('wrote settings.yaml')
    expect(init.stdout).not.toContain('API key')
    expect(existsSync(join(root, '.env'))).toBe(false)
    expect(await readFile(join(root, 'settings.yaml'), 'utf8')).toMatch(/^method: fast$/m)
    for (const prompt of ['chunk_graph_edges.txt', 'graph_search_system_prompt.txt'])
      expect(existsSync(join(root, 'prompts', prompt)), prompt).toBe(true)
  })

  it('indexes without any key and writes the tables and vectors', async () => {
    expect(index.code, index.stderr).toBe(0)
    expect(index.stderr).not.toMatch(/warning/i)
    const files = await readdir(join(root, 'output'))
    for (const table of [
      'documents',
      'text_units',
      'entities',
      'relationships',
      'communities',
      'community_reports',
      'chunk_edges',
    ]) {
      expect(files).toContain(`${table}.parquet`)
    }
    expect(files).toContain('lancedb')
  })

  it('is not blocked by a .env that still holds the init placeholder', async () => {
    await writeFile(join(root, '.env'), 'GRAPHRAG_API_KEY=<API_KEY>\n')
    const again = await runCliInProcess(['index', '--root', root, '--no-resume'], { env: NO_KEYS })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).not.toContain('<API_KEY>')
  }, 300_000)

  it('refuses a second init without --force and changes nothing', async () => {
    const before = await snapshotTree(root)
    const second = await runCliInProcess(['init', '--offline', '--root', root], { env: NO_KEYS })
    expect(second.code).toBe(1)
    expect(second.stderr).toContain('already initialized')
    expect(await snapshotTree(root)).toEqual(before)
  })
})
