/**
 * Values read from a cache pack: overlapping reads of one pack share one open file, closed once the
 * last of them ends (one open per cache hit cost a file open each, and hundreds of descriptors at once).
 */
import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { testdir } from '../support/testdir.js'

/** Descriptors of this process open on `file` (Linux: /proc/self/fd). */
function openOn(file: string): number {
  let n = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) n++
    } catch (error) {
      // The descriptor closed between the listing and the look.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return n
}

async function filledPack(entries: number) {
  const dir = join(await testdir({}), 'cache')
  const writer = keyValueStoreAt(dir).child('text_embedding')
  for (let i = 0; i < entries; i++) await writer.set(`key${i}`, `value ${i} ${'x'.repeat(i % 50)}`)
  await writer.flush()
  const [pack] = await readdir(join(dir, 'text_embedding'))
  return { dir, file: join(dir, 'text_embedding', pack!) }
}

describe.skipIf(!existsSync('/proc/self/fd'))('cache pack reads', () => {
  it('share one open file while they overlap and close it after the last', async () => {
    const { dir, file } = await filledPack(600)
    const reader = keyValueStoreAt(dir).child('text_embedding')
    await reader.get('key0')
    let most = 0
    let done = false
    const reads = Promise.all(Array.from({ length: 600 }, (_, i) => reader.get(`key${i}`))).finally(() => {
      done = true
    })
    while (!done) {
      most = Math.max(most, openOn(file))
      await new Promise((resolve) => setImmediate(resolve))
    }
    const values = await reads
    expect(values.every((v, i) => v === `value ${i} ${'x'.repeat(i % 50)}`)).toBe(true)
    expect(most).toBe(1)
    expect(openOn(file)).toBe(0)
  })

  it('a pack gone between reads fails the read that needs it, and the next read opens it again', async () => {
    const { dir, file } = await filledPack(3)
    const reader = keyValueStoreAt(dir).child('text_embedding')
    expect(await reader.get('key1')).toBe('value 1 x')
    await rm(file)
    await expect(reader.get('key2')).rejects.toMatchObject({ code: 'ENOENT' })
    expect(openOn(file)).toBe(0)
  })
})
