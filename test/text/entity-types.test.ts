import { describe, expect, it } from 'vitest'
import { consolidateTypes, countTypes, normalizeType, type TypedMention } from '../../src/text/entity-types.js'

const mentions = (documentId: string, type: string, names: string[]): TypedMention[] =>
  names.map((name) => ({ documentId, name, type }))

// A large maritime document with four frequent types, and a small one with a single type of its own.
const corpus = [
  ...mentions('log', 'ship', ['Kestrel', 'Albatross', 'Petrel', 'Fulmar', 'Gannet']),
  ...mentions('log', 'captain', ['Morrow', 'Ostrand', 'Haldane', 'Reyna']),
  ...mentions('log', 'Port', ['Harwick', 'Sandmere', 'Vellmar']),
  ...mentions('log', 'company', ['Seacrest', 'Brightwater', 'Northwind']),
  ...mentions('lab', 'enzyme', ['Lactazin', 'Kinorase']),
]

describe('entity type consolidation', () => {
  it('normalizes labels to one spelling', () => {
    expect(normalizeType(' research vessel ')).toBe('RESEARCH_VESSEL')
    expect(normalizeType('Court-ruling')).toBe('COURT_RULING')
    expect(normalizeType('navire')).toBe('NAVIRE')
    expect(normalizeType('--')).toBe('')
  })

  it('counts distinct entities per type, so a name repeated in many chunks counts once', () => {
    const repeated = [
      ...mentions('a', 'ship', ['Kestrel', 'KESTREL', 'kestrel ']),
      ...mentions('a', 'port', ['Harwick']),
    ]
    expect(countTypes(repeated)).toEqual([
      { type: 'PORT', count: 1 },
      { type: 'SHIP', count: 1 },
    ])
  })

  it("global keeps the most frequent types overall and drops the small document's type", () => {
    expect(consolidateTypes(corpus, { strategy: 'global', maxTypes: 4, minShare: 0 })).toEqual([
      'SHIP',
      'CAPTAIN',
      'COMPANY',
      'PORT',
    ])
  })

  it('stratified gives every document its top types in turn, keeping ENZYME', () => {
    expect(consolidateTypes(corpus, { strategy: 'stratified', maxTypes: 4, minShare: 0 })).toEqual([
      'SHIP',
      'ENZYME',
      'CAPTAIN',
      'COMPANY',
    ])
  })

  it('drops types below the minimum share (of the document for stratified, of the sample for global)', () => {
    const noisy = [...corpus, ...mentions('log', 'weather', ['Gale'])]
    expect(consolidateTypes(noisy, { strategy: 'stratified', maxTypes: 10, minShare: 0.1 })).not.toContain('WEATHER')
    // 2 of 18 entities: ENZYME has 11 % of the sample but all of its own document.
    expect(consolidateTypes(noisy, { strategy: 'global', maxTypes: 10, minShare: 0.12 })).not.toContain('ENZYME')
    expect(consolidateTypes(noisy, { strategy: 'stratified', maxTypes: 10, minShare: 0.12 })).toContain('ENZYME')
  })

  it('returns nothing for no mentions', () => {
    expect(consolidateTypes([], { strategy: 'stratified', maxTypes: 5, minShare: 0.05 })).toEqual([])
  })
})
