// The relationships read as columns (readColumns: codes into one list of every string of the read) and
// turned into create_communities' typed columns and create_final_text_units' citations, against the
// row forms (relationshipColumns, edgeColumns, the citations of rows). Both readers: the Parquet store
// hands Arrow batches, the memory store rows. Names, ids and text-unit ids share strings on purpose, so
// a rank taken over the whole list of values instead of one column's codes shows.
import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { createFinalTextUnits } from '../../../src/index/operations/create-final-text-units.js'
import {
  edgeColumns,
  edgeColumnsOfTable,
  relationshipColumns,
  relationshipColumnsOfTable,
} from '../../../src/index/operations/relationship-columns.js'
import { RELATIONSHIPS } from '../../../src/model/relationships.js'
import { pickColumns } from '../../../src/model/schema.js'
import { MemoryTableStore, ParquetTableStore, readColumns, type TableStore } from '../../../src/storage/table-store.js'
import { testdir } from '../../support/testdir.js'

const CLUSTERED = pickColumns(RELATIONSHIPS, ['id', 'source', 'target', 'weight', 'text_unit_ids'])
const EDGES = pickColumns(RELATIONSHIPS, ['source', 'target', 'weight'])
const CITING = pickColumns(RELATIONSHIPS, ['id', 'text_unit_ids'])

// 'u1' and 'r3' are names as well as a unit and an id; '\u{1D49C}' sorts after '\uFF5A' by code point only.
const NAMES = ['u1', 'r3', 'B', 'a', ' A', '\u{1D49C}X', '\uFF5AY', 'Zed', 'zed', 'M&amp;N']
const UNITS = ['u3', 'u1', 'u10', 'B', '\u{1D49C}u', '\uFF5Au', 't0', 't1']

function lcg(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

function randomRows(seed: number, count: number) {
  const random = lcg(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  return Array.from({ length: count }, (_, i) => ({
    id: i % 7 === 3 ? pick(NAMES) : `r${Math.floor(random() * count)}`,
    source: pick(NAMES),
    target: pick(NAMES),
    weight: pick([1, 2.5, 0, -1, 0.125]),
    // Empty lists, repeats within a list, units that are names.
    text_unit_ids: Array.from({ length: Math.floor(random() * 4) }, () => pick(UNITS)),
  }))
}

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function stores(): Promise<Array<[string, TableStore]>> {
  const dir = await testdir()
  dirs.push(dir)
  return [
    ['parquet', new ParquetTableStore(dir)],
    ['memory', new MemoryTableStore()],
  ]
}

describe('relationship columns from a column read', () => {
  it('equal the columns made from rows, in both readers', async () => {
    for (const [reader, store] of await stores()) {
      for (let seed = 1; seed <= 12; seed++) {
        const rows = randomRows(seed, 3 + seed * 9)
        await store.write(CLUSTERED, rows)
        const context = `${reader}, seed ${seed}`
        const read = await readColumns(store, CLUSTERED)
        expect(relationshipColumnsOfTable(read), context).toEqual(relationshipColumns(rows))
        expect(edgeColumnsOfTable(await readColumns(store, EDGES)), context).toEqual(edgeColumns(rows))
      }
    }
  })

  it('rank the names of the endpoints only (not the ids or units of the read)', async () => {
    const rows = [
      { id: 'a', source: 'y', target: 'x', weight: 1, text_unit_ids: ['b', 'a'] },
      { id: 'x', source: 'x', target: 'z', weight: 2, text_unit_ids: [] },
    ]
    const store = new MemoryTableStore()
    await store.write(CLUSTERED, rows)
    const columns = relationshipColumnsOfTable(await readColumns(store, CLUSTERED))
    expect(columns.names).toEqual(['x', 'y', 'z'])
    expect([...columns.source, ...columns.target]).toEqual([1, 0, 0, 2])
    expect(columns.unitNames).toEqual(['a', 'b'])
    expect([...columns.units]).toEqual([1, 0])
    expect([...columns.unitOffsets]).toEqual([0, 2, 2])
    expect(columns.ids).toEqual(['a', 'x'])
  })
})

describe('text-unit citations from a column read', () => {
  it('list the citing ids as the rows do: table order, repeats kept, units nobody cites empty', async () => {
    const units = [...UNITS, 'nobody'].map((id) => ({ id, document_id: 'd', text: id, n_tokens: 1 }))
    for (const [reader, store] of await stores()) {
      for (let seed = 1; seed <= 8; seed++) {
        const rows = randomRows(seed + 50, 4 + seed * 11)
        await store.write(CLUSTERED, rows)
        const read = await readColumns(store, CITING)
        const expected = createFinalTextUnits(units, rows.slice(0, 5), rows, undefined)
        const fromColumns = createFinalTextUnits(units, rows.slice(0, 5), read, undefined)
        expect(fromColumns, `${reader}, seed ${seed}`).toEqual(expected)
        expect(fromColumns.at(-1)!.relationship_ids).toEqual([])
      }
    }
  })
})
