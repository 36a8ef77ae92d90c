import { describe, expect, it } from 'vitest'
import { StorageError } from '../../src/errors.js'
import { openVectorStore, type VectorRow } from '../../src/storage/vector-store.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'
import { vectorStoreContract } from './vector-store.case.js'

const CREATED = new Date('2026-01-09T12:34:56.123Z')

function unit(values: number[]): number[] {
  const norm = Math.hypot(...values)
  return values.map((v) => v / norm)
}

const ROWS: Record<string, VectorRow[]> = {
  entity_description: [
    { id: 'e1', vector: unit([1, 0, 0, 0]) },
    { id: 'e2', vector: unit([0, 1, 0, 0]) },
    { id: 'e3', vector: unit([1, 1, 0, 0]) },
  ],
  community_full_content: [
    { id: 'c1', vector: unit([0, 0, 1, 0]) },
    { id: 'c2', vector: unit([0, 0, 1, 1]) },
  ],
  text_unit_text: [
    { id: 't1', vector: unit([0, 0, 0, 1]) },
    { id: "t'2", vector: unit([1, 0, 0, 1]) },
  ],
}

/** LanceDB, the one implementation: a store remembers its folder so the contract can reopen it as a later process would. */
const folders = new WeakMap<object, string>()
vectorStoreContract('LanceDB', {
  open: async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    folders.set(store, dir)
    return store
  },
  reopen: async (store) => {
    store.close()
    return openVectorStore(folders.get(store)!)
  },
})

describe('LanceDB vector store', () => {
  it('writes three tables, reopens them and answers nearest-neighbour searches', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    for (const [name, rows] of Object.entries(ROWS)) await store.replaceTable(name, rows, CREATED)
    store.close()

    const reopened = await openVectorStore(dir)
    expect((await reopened.tableNames()).sort()).toEqual(Object.keys(ROWS).sort())
    expect(await reopened.hasTable('entity_description')).toBe(true)
    expect(await reopened.hasTable('missing')).toBe(false)
    const hits = await reopened.search('entity_description', unit([1, 0.1, 0, 0]), 2)
    expect(hits.map((h) => h.id)).toEqual(['e1', 'e3'])
    expect(hits[0]!.distance).toBeGreaterThanOrEqual(0)
    expect(hits[0]!.score).toBeCloseTo(1 - hits[0]!.distance, 6)
    const self = await reopened.search('text_unit_text', ROWS.text_unit_text![1]!.vector, 1)
    expect(self[0]).toMatchObject({ id: "t'2" })
    expect(self[0]!.score).toBeCloseTo(1, 5)

    const vectors = await reopened.vectorsById('text_unit_text', ["t'2", 'nope'])
    expect([...vectors.keys()]).toEqual(["t'2"])
    expect(vectors.get("t'2")![0]).toBeCloseTo(Math.SQRT1_2, 6)
    expect((await reopened.vectorsById('community_full_content')).size).toBe(2)
    reopened.close()
  })

  it("uses Python GraphRAG's table layout", async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    await store.replaceTable('entity_description', ROWS.entity_description!, CREATED)
    store.close()
    const lancedb = await import('@lancedb/lancedb') // after the store set LANCEDB_LOG
    const db = await lancedb.connect(dir)
    const table = await db.openTable('entity_description')
    const schema = await table.schema()
    const parts = ['year', 'month', 'month_name', 'day', 'day_of_week', 'hour', 'quarter']
    expect(schema.fields.map((f) => f.name)).toEqual([
      'id',
      'vector',
      'create_date',
      'update_date',
      ...parts.map((p) => `create_date_${p}`),
      ...parts.map((p) => `update_date_${p}`),
    ])
    expect(String(schema.fields[1]!.type)).toBe('FixedSizeList[4]<Float32>')
    expect(String(schema.fields.find((f) => f.name === 'create_date_year')!.type)).toBe('Int64')
    const [row] = (await table.query().where("id = 'e1'").toArray()) as Array<Record<string, unknown>>
    expect(row).toMatchObject({
      create_date: '2026-01-09T12:34:56.123000+00:00',
      update_date: null,
      create_date_year: 2026n,
      create_date_month: 1n,
      create_date_month_name: 'January',
      create_date_day: 9n,
      create_date_day_of_week: 'Friday',
      create_date_hour: 12n,
      create_date_quarter: 1n,
      update_date_year: null,
    })
    db.close()
  })

  it('a rerun replaces rows instead of duplicating them', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    await store.replaceTable('text_unit_text', ROWS.text_unit_text!, CREATED)
    await store.replaceTable('text_unit_text', ROWS.text_unit_text!, CREATED)
    expect((await store.vectorsById('text_unit_text')).size).toBe(2)
    await store.replaceTable('text_unit_text', [], CREATED, { vectorSize: 4 })
    expect((await store.vectorsById('text_unit_text')).size).toBe(0)
    expect(await store.hasTable('text_unit_text')).toBe(true)
    store.close()
  })

  it('writes a table in batches: the first replaces the old table, the rest append in order', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    await store.replaceTable('t', ROWS.community_full_content!, CREATED)
    const writer = store.writeTable('t', CREATED)
    const rows = [...ROWS.entity_description!, ...ROWS.text_unit_text!]
    await writer.add(rows.slice(0, 2))
    await writer.add([])
    await writer.add(rows.slice(2))
    expect(await writer.finish()).toBe(5)
    expect(await store.ids('t')).toEqual(rows.map((r) => r.id))
    expect((await store.search('t', ROWS.text_unit_text![1]!.vector, 1))[0]!.id).toBe("t'2")
    // A later batch of another dimension fails with both numbers; nothing came: an empty table of the size.
    const bad = store.writeTable('u', CREATED)
    await bad.add(rows.slice(0, 1))
    await expect(bad.add([{ id: 'z', vector: [1, 0, 0] }])).rejects.toThrow(/3.*4/)
    const empty = store.writeTable('v', CREATED, { vectorSize: 4 })
    expect(await empty.finish()).toBe(0)
    expect(await store.describe('v')).toEqual({ rows: 0, dimension: 4 })
    await expect(store.writeTable('w', CREATED).finish()).rejects.toThrow(/no rows and no vector size/)
    store.close()
  })

  it('fails fast on a dimension mismatch, naming both numbers', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    const bad = [{ id: 'a', vector: [1, 0, 0] }]
    await expect(store.replaceTable('x', bad, CREATED, { vectorSize: 4 })).rejects.toThrow(StorageError)
    await expect(store.replaceTable('x', bad, CREATED, { vectorSize: 4 })).rejects.toThrow(/3.*4/)
    expect(await store.hasTable('x')).toBe(false)
    await store.replaceTable('x', ROWS.entity_description!, CREATED)
    await expect(store.search('x', [1, 0, 0], 1)).rejects.toThrow(/3.*4/)
    store.close()
  })

  it('builds an IVF_FLAT index on large tables and still finds the exact row', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      id: `r${i}`,
      vector: unit([Math.sin(i), Math.cos(i * 1.3), Math.sin(i * 0.7) + 1.5, Math.cos(i * 0.1)]),
    }))
    await store.replaceTable('big', rows, CREATED)
    const hits = await store.search('big', rows[1234]!.vector, 1)
    expect(hits[0]!.id).toBe('r1234')
    expect(hits[0]!.score).toBeCloseTo(1, 5)
    store.close()
    const lancedb = await import('@lancedb/lancedb')
    const db = await lancedb.connect(dir)
    const indices = await (await db.openTable('big')).listIndices()
    expect(indices.map((i) => [i.columns, i.indexType])).toEqual([[['vector'], 'IvfFlat']])
    db.close()
  }, 60_000)
})

describeShared('LanceDB vector store on Python-written tables', () => {
  it('opens the Dulce tables and self-search returns the same id first', async () => {
    const store = await openVectorStore(sharedPath('reference', 'msgr-v3-dulce', 'lancedb'))
    expect((await store.tableNames()).sort()).toEqual([
      'community_full_content',
      'entity_description',
      'text_unit_text',
    ])
    for (const name of await store.tableNames()) {
      const vectors = await store.vectorsById(name)
      expect(vectors.size).toBeGreaterThan(0)
      const [id, vector] = [...vectors.entries()][0]!
      expect(vector).toHaveLength(3072)
      const hits = await store.search(name, vector, 3)
      expect(hits[0]!.id).toBe(id)
      expect(hits[0]!.score).toBeCloseTo(1, 4)
    }
    store.close()
  })
})
