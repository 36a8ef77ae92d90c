import { existsSync } from 'node:fs'
import { chmod, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pinReadableIndex, removeDeadReaders } from '../../src/storage/generation-pins.js'
import { generationPaths, openWorkGeneration, publishGeneration } from '../../src/storage/generations.js'
import { testdir } from '../support/testdir.js'

async function withIndex(text: string): Promise<ReturnType<typeof generationPaths>> {
  const root = await testdir()
  const paths = generationPaths(join(root, 'output'))
  await mkdir(join(paths.output, 'lancedb', 't.lance'), { recursive: true })
  await writeFile(join(paths.output, 'text_units.parquet'), text)
  await writeFile(join(paths.output, 'lancedb', 't.lance', 'data'), `vectors of ${text}`)
  // The run folder beside output/, which every index run makes (its lock is there).
  await mkdir(paths.runDir)
  return paths
}

/** A new generation whose files say `text`, published the way a run does. */
async function publish(paths: ReturnType<typeof generationPaths>, text: string): Promise<void> {
  const work = await openWorkGeneration(paths)
  for (const [file, content] of [
    ['text_units.parquet', text],
    [join('lancedb', 't.lance', 'data'), `vectors of ${text}`],
  ] as const) {
    // Writers replace files by rename, as the table and vector writers do.
    await writeFile(join(work.dir, `${file}.tmp`), content)
    await rename(join(work.dir, `${file}.tmp`), join(work.dir, file))
  }
  await publishGeneration(paths)
}

describe('a reader pins one generation', () => {
  it('reads the pinned tables and vectors after a publish replaced them; letting go removes the old snapshot', async () => {
    const paths = await withIndex('one')
    const pin = await pinReadableIndex(paths.output, join(paths.output, 'lancedb'))
    expect(pin.dataDir.startsWith(join(paths.runDir, 'readers'))).toBe(true)
    expect(pin.dbUri).toBe(join(pin.dataDir, 'lancedb'))
    await publish(paths, 'two')
    expect(await readFile(join(pin.dataDir, 'text_units.parquet'), 'utf8')).toBe('one')
    expect(await readFile(join(pin.dbUri!, 't.lance', 'data'), 'utf8')).toBe('vectors of one')
    // A second reader gets the new generation while the first still holds the old one.
    const second = await pinReadableIndex(paths.output, join(paths.output, 'lancedb'))
    expect(await readFile(join(second.dataDir, 'text_units.parquet'), 'utf8')).toBe('two')
    await pin.release()
    expect(existsSync(pin.dataDir)).toBe(false)
    // The current generation's snapshot stays for the next reader of this process.
    await second.release()
    expect(existsSync(second.dataDir)).toBe(true)
    const third = await pinReadableIndex(paths.output, undefined)
    expect(third.dataDir).toBe(second.dataDir)
    await third.release()
  })

  it('readers of one generation in one process share its snapshot', async () => {
    const paths = await withIndex('one')
    const [a, b] = await Promise.all([
      pinReadableIndex(paths.output, undefined),
      pinReadableIndex(paths.output, undefined),
    ])
    expect(a.dataDir).toBe(b.dataDir)
    await publish(paths, 'two')
    await a.release()
    // b still reads it.
    expect(await readFile(join(b.dataDir, 'text_units.parquet'), 'utf8')).toBe('one')
    await b.release()
    expect(existsSync(b.dataDir)).toBe(false)
  })

  it.skipIf(process.getuid?.() === 0)('a folder where no snapshot can be made is read in place', async () => {
    const paths = await withIndex('one')
    await mkdir(paths.runDir, { recursive: true })
    await chmod(paths.runDir, 0o555)
    try {
      const pin = await pinReadableIndex(paths.output, undefined)
      expect(pin.dataDir).toBe(paths.output)
      await pin.release()
    } finally {
      await chmod(paths.runDir, 0o755)
    }
  })

  it('a folder no run of ours publishes to (no run folder beside it) is read in place, and nothing is written beside it', async () => {
    const root = await testdir({ 'copied/text_units.parquet': 'one' })
    const pin = await pinReadableIndex(join(root, 'copied'), join(root, 'copied', 'lancedb'))
    expect(pin.dataDir).toBe(join(root, 'copied'))
    expect(pin.dbUri).toBe(join(root, 'copied', 'lancedb'))
    await pin.release()
    expect(await readdir(root)).toEqual(['copied'])
  })

  it('a run removes the snapshots of readers on this host that are no longer running, and no others', async () => {
    const paths = await withIndex('one')
    const readers = join(paths.runDir, 'readers')
    const dead = `${hostname()}.999999.1`
    const live = `${hostname()}.${process.pid}.77`
    const elsewhere = 'another-host.999999.1'
    for (const entry of [dead, live, elsewhere]) await mkdir(join(readers, entry), { recursive: true })
    await removeDeadReaders(paths.output)
    expect((await readdir(readers)).sort()).toEqual([elsewhere, live].sort())
  })
})
