import { describe, expect, it } from 'vitest'
import { buildNounPairs, keepPairs, pairRows, pairWeight } from '../../../src/index/operations/noun-pairs.js'
import { renamePairs } from '../../../src/index/operations/rename-pairs.js'

const UNITS = [
  { id: 't1', phrases: ['SCROOGE', 'MARLEY', 'BOB CRATCHIT'] },
  { id: 't2', phrases: ['MARLEY', 'SCROOGE', 'MARLEY'] },
  { id: 't3', phrases: ['TINY TIM'] },
  { id: 't4', phrases: ['BOB CRATCHIT', 'TINY TIM', 'SCROOGE'] },
]
const pairsOf = (rows: { source: string; target: string; text_unit_ids: string[] }[]) =>
  rows.map((r) => `${r.source}|${r.target}|${r.text_unit_ids.join(',')}`)

describe('buildNounPairs', () => {
  it('keeps pairs as rank columns with a flat, ascending unit list per pair', () => {
    const pairs = buildNounPairs(UNITS, false)
    expect(pairs.titles).toEqual(['BOB CRATCHIT', 'MARLEY', 'SCROOGE', 'TINY TIM'])
    expect([...pairs.frequency]).toEqual([2, 2, 3, 2])
    expect(pairs.count).toBe(5)
    expect([...pairs.sources]).toEqual([0, 0, 0, 1, 2])
    expect([...pairs.targets]).toEqual([1, 2, 3, 2, 3])
    expect([...pairs.unitStart]).toEqual([0, 1, 3, 4, 6, 7])
    expect([...pairs.units]).toEqual([0, 0, 3, 3, 0, 1, 3])
    expect(pairs.pmi).toBeUndefined()
  })

  it('sorts each source’s units by target first, then by unit (a unit may add targets out of order)', () => {
    // Unit 0 adds A–C, unit 1 adds A–B then A–C: the occurrences of source A arrive as C0, B1, C1.
    const pairs = buildNounPairs(
      [
        { id: 'u0', phrases: ['A', 'C'] },
        { id: 'u1', phrases: ['C', 'B', 'A'] },
      ],
      false,
    )
    expect(pairsOf(pairRows(pairs).slice())).toEqual(['A|B|u1', 'A|C|u0,u1', 'B|C|u1'])
  })

  it('weights by PMI from the totals of the whole graph, even after pairs are dropped', () => {
    const pairs = buildNounPairs(UNITS, true)
    expect(pairs.pmi).toEqual({ totalFrequency: 9, totalWeight: 7 })
    const before = pairWeight(pairs, 3) // MARLEY–SCROOGE: p = 2/7, p(x) = 2/9, p(y) = 3/9
    expect(before).toBe((2 / 7) * Math.log2(2 / 7 / ((2 / 9) * (3 / 9))))
    keepPairs(pairs, (rank) => rank !== 0)
    expect(pairWeight(pairs, 0)).toBe(before)
  })
})

describe('keepPairs', () => {
  it('drops pairs with a refused endpoint in place, keeping the others’ units with them', () => {
    const pairs = buildNounPairs(UNITS, false)
    expect(keepPairs(pairs, (rank) => rank !== 1)).toBe(2)
    expect(pairs.count).toBe(3)
    expect(pairsOf(pairRows(pairs).slice())).toEqual([
      'BOB CRATCHIT|SCROOGE|t1,t4',
      'BOB CRATCHIT|TINY TIM|t4',
      'SCROOGE|TINY TIM|t4',
    ])
    expect(keepPairs(pairs, () => false)).toBe(3)
    expect(pairRows(pairs).slice()).toEqual([])
  })
})

describe('pairRows', () => {
  it('makes only the rows of the slice asked for, as the whole list would have them', () => {
    const rows = pairRows(buildNounPairs(UNITS, false))
    expect(rows.length).toBe(5)
    const all = rows.slice()
    expect(all[0]).toEqual({
      source: 'BOB CRATCHIT',
      target: 'MARLEY',
      weight: 1,
      text_unit_ids: ['t1'],
      description: '',
    })
    expect(rows.slice(1, 3)).toEqual(all.slice(1, 3))
    expect(rows.slice(3)).toEqual(all.slice(3))
    expect(rows.slice(4, 99)).toEqual(all.slice(4))
  })
})

describe('renamePairs', () => {
  it('merges renamed pairs into the ones they land on and drops the self-loops', () => {
    const pairs = buildNounPairs(
      [
        { id: 'u0', phrases: ['A', 'B'] },
        { id: 'u1', phrases: ['A', 'b', 'B'] },
        { id: 'u2', phrases: ['b', 'C'] },
      ],
      false,
    )
    expect(pairs.titles).toEqual(['A', 'B', 'C', 'b'])
    expect(renamePairs(pairs, Int32Array.from([0, 1, 2, 1]))).toBe(1)
    expect(
      pairRows(pairs)
        .slice()
        .map((r) => [r.source, r.target, r.weight, r.text_unit_ids]),
    ).toEqual([
      ['A', 'B', 3, ['u0', 'u1']],
      ['B', 'C', 1, ['u2']],
    ])
  })
})
