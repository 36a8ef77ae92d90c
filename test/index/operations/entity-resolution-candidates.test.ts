/** Fuzzy and embedding candidate pairs, key merges and the confirmation reply's validation (pure parts). */
import { describe, expect, it } from 'vitest'
import {
  embeddingCandidates,
  fuzzyCandidates,
  type NameGroup,
  typesCompatible,
} from '../../../src/index/operations/entity-resolution/candidates.js'
import { pairsMessage, readDecisions } from '../../../src/index/operations/entity-resolution/confirm.js'
import { keyMerges } from '../../../src/index/operations/entity-resolution/key-merges.js'
import { editDistance, editSimilarity } from '../../../src/text/edit-distance.js'

const group = (key: string, type = 'ORGANIZATION'): NameGroup => ({ key, title: key.toUpperCase(), type })

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(editDistance('harbour', 'harbor')).toBe(1)
    expect(editDistance('carter', 'carver')).toBe(1)
    expect(editDistance('ferry', 'fery')).toBe(1)
    expect(editDistance('form', 'from')).toBe(1)
    expect(editDistance('', 'abc')).toBe(3)
    expect(editSimilarity('harbour authority', 'harbor authority')).toBeCloseTo(1 - 1 / 17, 10)
    expect(editSimilarity('', '')).toBe(1)
    // Lengths alone rule the pair out: 0 without computing the table.
    expect(editSimilarity('ab', 'abcdefghij', 0.9)).toBe(0)
  })
})

describe('fuzzy candidates', () => {
  const groups = [
    group('harbour authority'),
    group('harbor authority'),
    group('route 7 ferry'),
    group('route 9 ferry'),
    group('greyling'),
    group('greylings crew', 'PERSON'),
    group('moor', 'GEO'),
    group('moore', 'GEO'),
  ]

  it('pairs keys at or above the threshold, most similar first, each pair once with its keys in order', () => {
    const pairs = fuzzyCandidates(groups, { threshold: 0.9, minLength: 6 })
    expect(pairs.map((p) => [p.a, p.b])).toEqual([
      ['harbor authority', 'harbour authority'],
      ['route 7 ferry', 'route 9 ferry'],
    ])
    expect(pairs[0]!.similarity).toBeCloseTo(1 - 1 / 17, 10)
    expect(pairs.every((p) => p.via === 'fuzzy')).toBe(true)
    // 1 − 1/13 ≈ 0.923 is below 0.93.
    expect(fuzzyCandidates(groups, { threshold: 0.93, minLength: 6 }).map((p) => p.a)).toEqual(['harbor authority'])
  })

  it('never pairs keys shorter than the minimum length, nor names of different types', () => {
    const short = fuzzyCandidates(groups, { threshold: 0.6, minLength: 6 })
    expect(short.some((p) => p.a === 'moor')).toBe(false)
    expect(
      fuzzyCandidates(groups, { threshold: 0.6, minLength: 4 }).some((p) => p.a === 'moor' && p.b === 'moore'),
    ).toBe(true)
    const typed = [group('kittiwake ferry', 'ORGANIZATION'), group('kittiwake ferri', 'GEO')]
    expect(fuzzyCandidates(typed, { threshold: 0.9, minLength: 6 })).toEqual([])
    expect(typesCompatible('PERSON', 'person')).toBe(true)
    expect(typesCompatible('', 'GEO')).toBe(true)
    expect(typesCompatible('PERSON', 'GEO')).toBe(false)
  })

  it('gives the same pairs whatever the input order', () => {
    const a = fuzzyCandidates(groups, { threshold: 0.8, minLength: 6 })
    const b = fuzzyCandidates([...groups].reverse(), { threshold: 0.8, minLength: 6 })
    expect(b).toEqual(a)
    expect(a.length).toBe(2)
  })
})

describe('embedding candidates', () => {
  const unit = (angle: number) => [Math.cos(angle), Math.sin(angle), 0]
  const vectors = new Map<string, number[]>([
    ['nell harrow', unit(0)],
    ['nellie harrow', unit(0.2)],
    ['tobias harrow', unit(1.2)],
    ['harrow house', [0, 0, 2]],
  ])

  it('pairs names whose vectors reach the cosine threshold, within one type', () => {
    const groups = [group('nell harrow', 'PERSON'), group('nellie harrow', 'PERSON'), group('tobias harrow', 'PERSON')]
    const { pairs, skipped } = embeddingCandidates(groups, vectors, { threshold: 0.95, maxNames: 10 })
    expect(pairs.map((p) => [p.a, p.b, p.via])).toEqual([['nell harrow', 'nellie harrow', 'embedding']])
    expect(pairs[0]!.similarity).toBeCloseTo(Math.cos(0.2), 6)
    expect(skipped).toEqual([])
    const other = [group('nell harrow', 'PERSON'), group('nellie harrow', 'GEO')]
    expect(embeddingCandidates(other, vectors, { threshold: 0.95, maxNames: 10 }).pairs).toEqual([])
  })

  it('compares an untyped name with every type, and skips a type with more names than allowed', () => {
    const groups = [group('nell harrow', 'PERSON'), group('nellie harrow', ''), group('tobias harrow', 'PERSON')]
    expect(embeddingCandidates(groups, vectors, { threshold: 0.95, maxNames: 10 }).pairs).toHaveLength(1)
    const big = embeddingCandidates(groups, vectors, { threshold: 0.95, maxNames: 2 })
    expect(big).toEqual({ pairs: [], skipped: ['PERSON'] })
  })
})

describe('key merges', () => {
  it('joins chains into one group rooted at the smallest key, in any pair order', () => {
    const pairs = [
      { a: 'b', b: 'c' },
      { a: 'd', b: 'e' },
      { a: 'a', b: 'c' },
    ]
    const expected = new Map([
      ['b', 'a'],
      ['c', 'a'],
      ['e', 'd'],
    ])
    expect(keyMerges(pairs)).toEqual(expected)
    expect(keyMerges([...pairs].reverse())).toEqual(expected)
    expect(keyMerges([])).toEqual(new Map())
  })
})

describe('confirmation replies', () => {
  it('numbers the pairs with names, types and short descriptions', () => {
    const side = (key: string) => ({ title: key.toUpperCase(), type: 'GEO', description: `About ${key}.\n`.repeat(50) })
    const message = pairsMessage([{ a: 'x', b: 'y', similarity: 1, via: 'fuzzy' }], side)
    expect(message).toMatch(/^Entity pairs:\n1\. "X" \[GEO\]: About x\. About x\./)
    expect(message).toContain('  |  "Y" [GEO]: About y.')
    expect(message.length).toBeLessThan(500)
  })

  it('reads decisions by line number, ignoring lines out of range, duplicates of type and non-boolean verdicts', () => {
    const reply = {
      decisions: [
        { pair: 1, same: true },
        { pair: '2', same: false },
        { pair: 3, same: 'yes' },
        { pair: 9, same: true },
        { pair: 1.5, same: true },
        null,
      ],
    }
    const { same, answered } = readDecisions(reply, 4)
    expect([...same]).toEqual([1])
    expect([...answered].sort()).toEqual([1, 2])
    expect(readDecisions({ other: [] }, 2).answered.size).toBe(0)
    expect(readDecisions(undefined, 2).answered.size).toBe(0)
  })
})
