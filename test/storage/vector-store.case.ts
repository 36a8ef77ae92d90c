// The VectorStore contract, run against every implementation (vector-store.test.ts): `open` gives an empty
// store, `reopen` the same store as a later process sees it (a persisted store reopens its folder).
import { describe, expect, it } from 'vitest'
import { StorageError } from '../../src/errors.js'
import type { VectorRow, VectorStore } from '../../src/storage/vector-store.js'

const CREATED = new Date('2026-01-09T12:34:56.123Z')
const unit = (values: number[]): number[] => values.map((v) => v / Math.hypot(...values))
const ROWS: VectorRow[] = [
  { id: 'b', vector: unit([1, 0, 0, 0]) },
  { id: 'a', vector: unit([1, 0, 0, 0]) },
  { id: 'c', vector: unit([0, 1, 0, 0]) },
  { id: 'd', vector: unit([1, 1, 0, 0]) },
]

export function vectorStoreContract(
  name: string,
  stores: { open: () => Promise<VectorStore>; reopen: (store: VectorStore) => Promise<VectorStore> },
): void {
  describe(`VectorStore contract: ${name}`, () => {
    it('searches nearest first by cosine distance, ties by id, with score = 1 - distance', async () => {
      const store = await stores.reopen(await written(stores.open))
      const hits = await store.search('t', unit([1, 0.05, 0, 0]), 3)
      expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'd'])
      expect(hits[0]!.distance).toBeCloseTo(hits[1]!.distance, 6)
      for (const h of hits) expect(h.score).toBeCloseTo(1 - Math.abs(h.distance), 6)
      store.close()
    })

    it('lists its tables and returns vectors by id, leaving unknown ids out', async () => {
      const store = await stores.reopen(await written(stores.open))
      expect(await store.tableNames()).toEqual(['t'])
      expect([await store.hasTable('t'), await store.hasTable('missing')]).toEqual([true, false])
      const vectors = await store.vectorsById('t', ['c', 'nope'])
      expect([...vectors.keys()]).toEqual(['c'])
      expect(Array.from(vectors.get('c')!, (v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 1, 0, 0])
      expect((await store.vectorsById('t')).size).toBe(ROWS.length)
      store.close()
    })

    it('replaces a table in full, and keeps an empty one of a given size', async () => {
      const store = await written(stores.open)
      await store.replaceTable('t', ROWS.slice(0, 1), CREATED)
      expect([...(await store.vectorsById('t')).keys()]).toEqual(['b'])
      await store.replaceTable('t', [], CREATED, { vectorSize: 4 })
      expect(await store.hasTable('t')).toBe(true)
      expect((await store.vectorsById('t')).size).toBe(0)
      store.close()
    })

    it('rejects a row of another dimension before writing anything', async () => {
      const store = await stores.open()
      const error = await store
        .replaceTable('t', [...ROWS, { id: 'short', vector: [1, 0, 0] }], CREATED)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StorageError)
      expect((error as Error).message).toMatch(/3.*4|4.*3/)
      expect(await store.hasTable('t')).toBe(false)
      store.close()
    })
  })
}

async function written(open: () => Promise<VectorStore>): Promise<VectorStore> {
  const store = await open()
  await store.replaceTable('t', ROWS, CREATED)
  return store
}
