// The TableStore contract, run against every implementation (table-store.test.ts): each `open` gives an empty store.
import { describe, expect, it } from 'vitest'
import { StorageError } from '../../src/errors.js'
import { BASE_TEXT_UNITS, COVARIATES, type BaseTextUnitRow } from '../../src/model/index.js'
import type { TableStore } from '../../src/storage/table-store.js'

const ROWS: BaseTextUnitRow[] = [
  { id: 'u1', document_id: 'd1', text: 'First passage, with “quotes” and ümlauts.', n_tokens: 9 },
  { id: 'u2', document_id: 'd1', text: '', n_tokens: 0 },
]

export function tableStoreContract(name: string, open: () => Promise<TableStore>): void {
  describe(`TableStore contract: ${name}`, () => {
    it('reads back what it wrote, row for row, and copies instead of aliasing', async () => {
      const store = await open()
      const rows = ROWS.map((r) => ({ ...r }))
      await store.write(BASE_TEXT_UNITS, rows)
      rows[0]!.text = 'changed after writing'
      const read = await store.read(BASE_TEXT_UNITS)
      expect(read).toEqual(ROWS)
      read[0]!.text = 'changed after reading'
      expect(await store.read(BASE_TEXT_UNITS)).toEqual(ROWS)
    })

    it('reads only the rows an index filter keeps, in table order', async () => {
      const store = await open()
      const rows = Array.from({ length: 7 }, (_, i) => ({ ...ROWS[0]!, id: `u${i}`, n_tokens: i }))
      await store.write(BASE_TEXT_UNITS, rows)
      const odd = await store.read(BASE_TEXT_UNITS, { rows: (i) => i % 2 === 1 })
      expect(odd).toEqual([rows[1], rows[3], rows[5]])
      expect(await store.read(BASE_TEXT_UNITS, { rows: () => false })).toEqual([])
    })

    it('lists, checks and deletes tables by name', async () => {
      const store = await open()
      expect(await store.has(BASE_TEXT_UNITS.name)).toBe(false)
      expect(await store.names()).toEqual([])
      await store.write(COVARIATES, [])
      await store.write(BASE_TEXT_UNITS, ROWS)
      expect(await store.has(BASE_TEXT_UNITS.name)).toBe(true)
      expect(await store.names()).toEqual(['covariates', 'text_units'])
      await store.delete(BASE_TEXT_UNITS.name)
      expect(await store.has(BASE_TEXT_UNITS.name)).toBe(false)
      expect(await store.names()).toEqual(['covariates'])
      await store.delete('never-written')
    })

    it('fails to read a missing table with a StorageError naming it', async () => {
      const store = await open()
      const error = await store.read(BASE_TEXT_UNITS).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StorageError)
      expect((error as Error).message).toContain('text_units')
    })

    it('fingerprints content: equal for the same rows, different for others, undefined when absent', async () => {
      const store = await open()
      expect(await store.fingerprint(BASE_TEXT_UNITS.name)).toBeUndefined()
      await store.write(BASE_TEXT_UNITS, ROWS)
      const first = await store.fingerprint(BASE_TEXT_UNITS.name)
      expect(first).toMatch(/^[0-9a-f]{64}$/)
      await store.write(
        BASE_TEXT_UNITS,
        ROWS.map((r) => ({ ...r })),
      )
      expect(await store.fingerprint(BASE_TEXT_UNITS.name)).toBe(first)
      await store.write(BASE_TEXT_UNITS, ROWS.slice(1))
      expect(await store.fingerprint(BASE_TEXT_UNITS.name)).not.toBe(first)
      expect(await store.read(BASE_TEXT_UNITS)).toEqual(ROWS.slice(1))
    })
  })
}
