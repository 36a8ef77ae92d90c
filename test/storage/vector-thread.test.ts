// Vector search on a thread of its own (src/storage/vector-thread.ts), as `graphrag query` runs it:
// the thread answers what the in-process store answers, its errors keep their kind and message, an
// idle thread never keeps a process alive and a call in flight always does. The thread runs the
// built worker (dist/), so this file imports the built client.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StorageError } from '../../src/errors.js'
import { openVectorStore, type VectorRow } from '../../src/storage/vector-store.js'
import type * as VectorThreadModule from '../../src/storage/vector-thread.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const BUILT = pathToFileURL(join(PROJECT_ROOT, 'dist', 'storage', 'vector-thread.js')).href
const CREATED = new Date('2026-01-02T03:04:05Z')

/** 40 unit-ish vectors of dimension 4, each a little apart. */
const ROWS: VectorRow[] = Array.from({ length: 40 }, (_, i) => ({
  id: `row-${String(i).padStart(2, '0')}`,
  vector: [Math.cos(i / 7), Math.sin(i / 7), (i % 5) / 10, 1],
}))

/** Runs an ES-module script in a child process, for 30 s at most (a thread holding it open ends there). */
function runScript(script: string, nodeFlags: readonly string[] = []) {
  return spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  })
}

let dir: string
let thread: VectorThreadModule.VectorThread

describe('vector search on its own thread', () => {
  beforeAll(async () => {
    dir = join(await testdir(), 'lancedb')
    const store = await openVectorStore(dir)
    await store.replaceTable('entity_description', ROWS, CREATED)
    store.close()
    const { startVectorThread } = (await import(BUILT)) as typeof VectorThreadModule
    thread = startVectorThread()
  }, 60_000)
  afterAll(() => thread?.close())

  it('answers searches, lookups and table checks as the in-process store does', async () => {
    const local = await openVectorStore(dir)
    const remote = await thread.open(dir)
    const question = [0.3, 0.9, 0.2, 1]
    expect(await remote.search('entity_description', question, 7)).toEqual(
      await local.search('entity_description', question, 7),
    )
    const ids = ['row-03', 'row-17', 'no-such-row']
    const got = await remote.vectorsById('entity_description', ids)
    expect([...got.keys()].sort()).toEqual(['row-03', 'row-17'])
    expect(got.get('row-17')).toBeInstanceOf(Float32Array)
    expect(got).toEqual(await local.vectorsById('entity_description', ids))
    expect(await remote.hasTable('entity_description')).toBe(true)
    expect(await remote.hasTable('community_full_content')).toBe(false)
    local.close()
  })

  it('keeps an error a StorageError with its message', async () => {
    const remote = await thread.open(dir)
    // The built client's StorageError is dist's class: compare what callers see of it.
    const failed = (await remote.search('entity_description', [1, 2, 3], 3).catch((e: unknown) => e)) as StorageError
    expect([failed.name, failed.code, failed.message]).toEqual([
      'StorageError',
      'STORAGE',
      'query vector has dimension 3 but table entity_description stores dimension 4',
    ])
    const missing = (await remote.search('no_such_table', [1, 2, 3, 4], 3).catch((e: unknown) => e)) as StorageError
    expect([missing.name, missing.code, missing.message, missing.path]).toEqual([
      'StorageError',
      'STORAGE',
      `LanceDB table no_such_table not found in ${dir}`,
      dir,
    ])
    // Its cause too (LanceDB's own words, which the CLI prints after the message), as in process.
    const local = await openVectorStore(dir)
    const inProcess = (await local.search('no_such_table', [1, 2, 3, 4], 3).catch((e: unknown) => e)) as Error
    local.close()
    expect(inProcess.cause).toBeInstanceOf(Error)
    expect((missing.cause as Error | undefined)?.message).toBe((inProcess.cause as Error).message)
  })

  it('fails calls after it was closed, instead of waiting for ever', async () => {
    const { startVectorThread } = (await import(BUILT)) as typeof VectorThreadModule
    const closing = startVectorThread()
    const store = await closing.open(dir)
    await closing.close()
    await expect(store.hasTable('entity_description')).rejects.toThrow('the vector search thread was closed')
  })

  it('keeps the process alive until close() has ended the thread, also with a call in flight', () => {
    // The CLI closes the thread in a finally, then prints the error and sets the exit code. A reply
    // arriving after close() (here to the store's close, sent just before) used to unref the thread
    // while it was being terminated: the process then ended first, silently, with code 0.
    const script = `
      const { startVectorThread } = await import(${JSON.stringify(BUILT)})
      const thread = startVectorThread()
      const store = await thread.open(${JSON.stringify(dir)})
      await store.search('entity_description', [1, 0, 0, 1], 1)
      store.close()
      await thread.close()
      console.log('closed')
      process.exitCode = 3
    `
    // A race: each run lost it about half the time before the fix.
    for (let run = 0; run < 8; run++) {
      const result = runScript(script)
      expect([result.status, result.stdout.trim()], result.stderr).toEqual([3, 'closed'])
    }
  }, 120_000)

  it('lets a process exit while idle, and keeps it alive until a call in flight is answered', async () => {
    const local = await openVectorStore(dir)
    const expected = (await local.search('entity_description', [1, 0, 0, 1], 3)).map((h) => h.id).join(' ')
    local.close()
    // No close(), no timer: the process lives exactly as long as the search it waits for.
    const script = `
      const { startVectorThread } = await import(${JSON.stringify(BUILT)})
      const thread = startVectorThread()
      const store = await thread.open(${JSON.stringify(dir)})
      const hits = await store.search('entity_description', [1, 0, 0, 1], 3)
      console.log(hits.map((h) => h.id).join(' '))
    `
    const run = runScript(script)
    expect(run.error).toBeUndefined() // a thread holding the process open ends in the timeout
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe(expected)

    // Started and never asked: the process ends when its script does.
    const idle = runScript(`(await import(${JSON.stringify(BUILT)})).startVectorThread(); console.log('idle')`)
    expect(idle.error).toBeUndefined()
    expect([idle.status, idle.stdout.trim()]).toEqual([0, 'idle'])

    // A thread that cannot start (here a preloaded module throws in every worker): the calls run in
    // the process instead, with the same answers.
    const noThreads =
      "data:text/javascript,import{isMainThread}from'node:worker_threads';if(!isMainThread)throw new Error('no threads here')"
    const fallback = runScript(script, ['--import', noThreads])
    expect(fallback.status, fallback.stderr).toBe(0)
    expect(fallback.stdout.trim()).toBe(expected)
  }, 60_000)
})
