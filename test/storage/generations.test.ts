import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import {
  generationPaths,
  openWorkGeneration,
  publishGeneration,
  readableIndexDir,
  recoverGenerations,
} from '../../src/storage/generations.js'
import { acquireRunLock, RunLockedError } from '../../src/storage/run-lock.js'
import { testdir } from '../support/testdir.js'

async function withIndex(tables: Record<string, string>): Promise<ReturnType<typeof generationPaths>> {
  const root = await testdir()
  const paths = generationPaths(join(root, 'output'))
  await mkdir(join(paths.output, 'lancedb', 't.lance'), { recursive: true })
  for (const [name, text] of Object.entries(tables)) await writeFile(join(paths.output, name), text)
  await writeFile(join(paths.output, 'lancedb', 't.lance', 'data'), 'vectors')
  return paths
}

describe('index generations', () => {
  it('seeds the work generation from output/, publishes it whole and removes the old one', async () => {
    const paths = await withIndex({ 'a.parquet': 'old a', 'b.parquet': 'old b' })
    const work = await openWorkGeneration(paths)
    expect(work.resumed).toBe(false)
    expect(await readFile(join(work.dir, 'lancedb', 't.lance', 'data'), 'utf8')).toBe('vectors')
    // Writers replace files by rename: the published copy is untouched until the publish.
    await writeFile(join(work.dir, 'a.parquet.tmp'), 'new a')
    await rename(join(work.dir, 'a.parquet.tmp'), join(work.dir, 'a.parquet'))
    expect(await readFile(join(paths.output, 'a.parquet'), 'utf8')).toBe('old a')
    await publishGeneration(paths)
    expect(await readFile(join(paths.output, 'a.parquet'), 'utf8')).toBe('new a')
    expect(await readFile(join(paths.output, 'b.parquet'), 'utf8')).toBe('old b')
    expect(existsSync(paths.work) || existsSync(paths.previous) || existsSync(paths.journal)).toBe(false)
  })

  it('a work generation left by a crash is resumed, unless output/ was replaced or deleted since', async () => {
    const paths = await withIndex({ 'a.parquet': 'old a' })
    await openWorkGeneration(paths)
    await writeFile(join(paths.work, 'c.parquet'), 'half-way')
    expect(await openWorkGeneration(paths)).toEqual({ dir: paths.work, resumed: true })
    await rm(paths.output, { recursive: true })
    expect(await openWorkGeneration(paths)).toEqual({ dir: paths.work, resumed: false })
    expect(existsSync(join(paths.work, 'c.parquet'))).toBe(false)
  })

  it('a crash between the two renames of a publish: readers use the complete work generation, the next run rolls forward', async () => {
    const paths = await withIndex({ 'a.parquet': 'old a' })
    await openWorkGeneration(paths)
    await writeFile(join(paths.work, 'a.parquet'), 'new a')
    // The publish up to its first rename, then the crash.
    await writeFile(paths.journal, '{}\n')
    await rename(paths.output, paths.previous)
    expect(await readableIndexDir(paths.output)).toBe(paths.work)
    expect(await recoverGenerations(paths)).toEqual({ rolledForward: true })
    expect(await readFile(join(paths.output, 'a.parquet'), 'utf8')).toBe('new a')
    expect(existsSync(paths.previous) || existsSync(paths.journal)).toBe(false)
    expect(await readableIndexDir(paths.output)).toBe(paths.output)
  })

  it('a crash after the journal was written but before any rename finishes the publish too', async () => {
    const paths = await withIndex({ 'a.parquet': 'old a' })
    await openWorkGeneration(paths)
    await writeFile(join(paths.work, 'a.parquet'), 'new a')
    await writeFile(paths.journal, '{}\n')
    await recoverGenerations(paths)
    expect(await readFile(join(paths.output, 'a.parquet'), 'utf8')).toBe('new a')
  })
})

describe('run lock', () => {
  it('a second holder gets RunLockedError naming the PID; released, it can be taken again', async () => {
    const root = await testdir()
    const path = join(root, 'lock')
    const lock = await acquireRunLock(path, 'graphrag index')
    const second = await acquireRunLock(path, 'graphrag update').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(second).toBeInstanceOf(RunLockedError)
    expect((second as Error).message).toContain(`PID ${process.pid} on host ${hostname()} (\`graphrag index\``)
    await lock.release()
    expect(existsSync(path)).toBe(false)
    const again = await acquireRunLock(path, 'graphrag index')
    expect(again.tookOverFrom).toBeUndefined()
    await again.release()
  })

  it('takes over a lock whose process is gone, and a lock file that is not ours at all', async () => {
    const root = await testdir()
    const path = join(root, 'lock')
    await writeFile(
      path,
      JSON.stringify({
        pid: 2 ** 22 + 17,
        host: (await import('node:os')).hostname(),
        command: 'graphrag index',
        started: 'x',
      }),
    )
    const lock = await acquireRunLock(path, 'graphrag index')
    expect(lock.tookOverFrom?.pid).toBe(2 ** 22 + 17)
    await lock.release()
    await writeFile(path, 'garbage')
    const next = await acquireRunLock(path, 'graphrag index')
    expect(next.tookOverFrom?.pid).toBe(0)
    await next.release()
  })

  it('issue 47 items 7 and 9: a holder on another host is judged by its heartbeat (the file refreshed every 30 s), not its hostname', async () => {
    const root = await testdir()
    const path = join(root, 'lock')
    // A CI job killed by -9 in a container whose hostname the next job does not share.
    const other = {
      pid: process.pid,
      host: 'ci-job-41',
      command: 'graphrag index',
      started: '2026-11-28T10:00:00.000Z',
    }
    await writeFile(path, `${JSON.stringify(other)}\n`)
    const refused = await acquireRunLock(path, 'graphrag update').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(refused).toBeInstanceOf(RunLockedError)
    expect((refused as Error).message).toContain(`PID ${process.pid} on host ci-job-41 (\`graphrag index\``)
    const aged = new Date(Date.now() - 121_000)
    await utimes(path, aged, aged)
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const taken = await acquireRunLock(path, 'graphrag update')
    try {
      expect(taken.tookOverFrom).toMatchObject({ host: 'ci-job-41' })
      expect(taken.tookOverBecause).toBe('has not refreshed it for 121 s')
      // The new holder refreshes the file, so another host sees it alive however long it runs.
      await utimes(path, aged, aged)
      vi.advanceTimersByTime(30_000)
      await vi.waitFor(async () => expect(Date.now() - (await stat(path)).mtimeMs).toBeLessThan(10_000))
    } finally {
      await taken.release()
      vi.useRealTimers()
    }
    expect(existsSync(path)).toBe(false)
  })
})
