import { link, mkdir, readFile, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tableHashes } from '../../../src/index/run/resume.js'
import { DOCUMENTS } from '../../../src/model/documents.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { testdir } from '../../support/testdir.js'

/** A Parquet store that counts how often a table's bytes are hashed. */
class CountingStore extends ParquetTableStore {
  hashed: string[] = []
  override fingerprint(name: string): Promise<string | undefined> {
    this.hashed.push(name)
    return super.fingerprint(name)
  }
}

const doc = (id: string) => ({
  id,
  human_readable_id: 0,
  title: `${id}.txt`,
  text: `text of ${id}`,
  text_unit_ids: [],
  creation_date: '2026-01-01T00:00:00Z',
  metadata: null,
  raw_data: null,
})

describe('table hashes after each workflow', () => {
  it('hashes a table file again only when it is another file or was edited in place', async () => {
    const dir = await testdir()
    const store = new CountingStore(join(dir, 'output'))
    await store.write(DOCUMENTS, [doc('a')])
    const first = await tableHashes(store)
    expect(store.hashed).toEqual(['documents'])
    // Unchanged: the hash remembered; a hard link of it (a work generation) is the same file.
    expect(await tableHashes(store)).toEqual(first)
    await mkdir(join(dir, 'work'))
    await link(store.path('documents'), join(dir, 'work', 'documents.parquet'))
    const linked = new CountingStore(join(dir, 'work'))
    expect(await tableHashes(linked)).toEqual(first)
    expect([...store.hashed, ...linked.hashed]).toEqual(['documents'])
    // Replaced by rename (every writer does so): hashed again.
    await store.write(DOCUMENTS, [doc('b')])
    const second = await tableHashes(store)
    expect(second.documents).not.toBe(first.documents)
    // Edited in place, same size: its modification time tells.
    const bytes = await readFile(store.path('documents'))
    const edited = Buffer.from(bytes)
    edited[edited.length - 9] = edited[edited.length - 9]! ^ 1
    await writeFile(store.path('documents'), edited)
    const later = new Date(Date.now() + 5_000)
    await utimes(store.path('documents'), later, later)
    const third = await tableHashes(store)
    expect(third.documents).not.toBe(second.documents)
    expect(store.hashed).toEqual(['documents', 'documents', 'documents'])
  })
})
