/**
 * finalize_graph on codes (finalize-codes.ts) against the row form (finalize-graph.ts), the reference:
 * the same final rows, made a slice at a time, on generated graphs with repeated and reversed pairs and
 * self-loops, and on an ordered unique noun graph (where no set of pairs is kept).
 */
import { describe, expect, it } from 'vitest'
import { finalRelationshipColumns } from '../../../src/index/operations/finalize-codes.js'
import { finalizeEntities, finalizeGraph } from '../../../src/index/operations/finalize-graph.js'
import { EXTRACTED_RELATIONSHIPS, type ExtractedRelationshipRow } from '../../../src/model/relationships.js'
import { MemoryTableStore, readColumns } from '../../../src/storage/table-store.js'

const NAMES = ['A', 'B', 'C', 'D', 'E', '\uFF21', '\u{1F600}']

function relationships(seed: number, ordered: boolean): ExtractedRelationshipRow[] {
  let state = seed
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
  const rows: ExtractedRelationshipRow[] = []
  for (const [s, source] of NAMES.entries())
    for (const [t, target] of NAMES.entries()) {
      if (ordered ? source >= target || next() < 0.3 : next() < 0.6) continue
      const copies = ordered ? 1 : 1 + Math.floor(next() * 2)
      for (let c = 0; c < copies; c++)
        rows.push({
          source,
          target,
          weight: s * 10 + t + c / 4,
          description: c === 0 ? '' : `copy ${c}`,
          text_unit_ids: [`u${s}`, `u${t}`].slice(0, 1 + ((s + t + c) % 2)),
        })
    }
  if (!ordered) rows.sort(() => next() - 0.5)
  return rows
}

const entities = [...NAMES, 'ALONE'].map((title, i) => ({
  title,
  type: 'NOUN PHRASE',
  description: '',
  text_unit_ids: [`u${i}`],
  frequency: i + 1,
}))

async function columnsOf(rows: ExtractedRelationshipRow[]) {
  const store = new MemoryTableStore()
  await store.write(EXTRACTED_RELATIONSHIPS, rows)
  return readColumns(store, EXTRACTED_RELATIONSHIPS)
}

describe('finalize_graph on codes', () => {
  it('makes the rows and degrees the row form makes, in any slices', async () => {
    for (let seed = 1; seed <= 12; seed++)
      for (const ordered of [false, true]) {
        const rows = relationships(seed, ordered)
        const expected = finalizeGraph(entities, rows)
        const final = finalRelationshipColumns(await columnsOf(rows))
        const context = `seed ${seed}, ordered ${ordered}`
        expect(final.rows.slice(), context).toEqual(expected.relationships)
        expect(final.rows.length, context).toBe(expected.relationships.length)
        const cut = Math.floor(final.rows.length / 3)
        expect([...final.rows.slice(0, cut), ...final.rows.slice(cut)], context).toEqual(expected.relationships)
        expect(finalizeEntities(entities, final.degrees), context).toEqual(expected.entities)
        if (!ordered) expect(final.rows.length, context).toBeLessThan(rows.length)
      }
  })
})
