import { describe, expect, it } from 'vitest'
import { mergeExtractions } from '../../../src/index/operations/extract-graph/merge.js'

const e = (title: string, type: string, description = `${title} (${type})`) => ({ title, type, description })
const r = (source: string, target: string, weight: number, description = `${source}-${target}`) => ({
  source,
  target,
  description,
  weight,
})

describe('mergeExtractions', () => {
  it('keeps one row per title with the most frequent type (ties: first seen) and unions text units in order', () => {
    const merged = mergeExtractions([
      {
        textUnitId: 'u1',
        entities: [e('SCROOGE', 'PERSON'), e('LONDON', 'GEO'), e('FRED', 'PERSON')],
        relationships: [],
      },
      {
        textUnitId: 'u2',
        entities: [e('LONDON', 'ORGANIZATION'), e('SCROOGE', 'PERSON', 'a miser'), e('LONDON', 'ORGANIZATION', 'city')],
        relationships: [],
      },
      { textUnitId: 'u3', entities: [e('FRED', 'EVENT'), e('SCROOGE', 'ORGANIZATION')], relationships: [] },
    ])
    expect(merged.entities.map((x) => [x.title, x.type, x.text_unit_ids, x.frequency])).toEqual([
      ['SCROOGE', 'PERSON', ['u1', 'u2', 'u3'], 3],
      ['LONDON', 'ORGANIZATION', ['u1', 'u2'], 2],
      ['FRED', 'PERSON', ['u1', 'u3'], 2],
    ])
    expect(merged.entities[1]!.description).toEqual(['LONDON (GEO)', 'LONDON (ORGANIZATION)', 'city'])
  })

  it('merges relationships by directed pair, sums weights, drops orphans', () => {
    const merged = mergeExtractions([
      {
        textUnitId: 'u1',
        entities: [e('A', 'PERSON'), e('B', 'PERSON')],
        relationships: [r('A', 'B', 7), r('B', 'A', 8), r('A', 'C', 6)],
      },
      { textUnitId: 'u2', entities: [e('A', 'PERSON')], relationships: [r('A', 'B', 2.5, 'again')] },
    ])
    expect(merged.relationships).toEqual([
      { source: 'A', target: 'B', description: ['A-B', 'again'], text_unit_ids: ['u1', 'u2'], weight: 9.5 },
      { source: 'B', target: 'A', description: ['B-A'], text_unit_ids: ['u1'], weight: 8 },
    ])
    expect(merged.orphanRelationships).toBe(1)
  })
})
