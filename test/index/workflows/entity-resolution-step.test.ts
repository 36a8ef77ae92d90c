import { describe, expect, it } from 'vitest'
import type { RawRelationshipRow } from '../../../src/model/raw-graph.js'
import type { Resolution } from '../../../src/index/operations/entity-resolution/resolve.js'
import { fromRawGraph, toRawGraph } from '../../../src/index/workflows/entity-resolution-step.js'

const edge = (source: string, target: string, weight: number, units: string[]): RawRelationshipRow => ({
  source,
  target,
  weight,
  text_unit_ids: units,
  description: [],
})

function resolution(relationships: RawRelationshipRow[]): Resolution {
  return {
    entities: [],
    relationships,
    aliases: [],
    applied: 0,
    absent: [],
    dropped: { empty: 0, symbols: 0, too_short: 0, stop_words: 0, generic: 0 },
    droppedRelationships: 0,
    merged: 0,
    droppedSelfLoops: 0,
  }
}

const pairs = (rows: { source: string; target: string; weight: number; text_unit_ids: string[] }[]) =>
  rows.map((r) => [r.source, r.target, r.weight, r.text_unit_ids])

describe('fromRawGraph', () => {
  it('keeps unique pairs already in order as they are', () => {
    const out = fromRawGraph(
      resolution([edge('A', 'B', 1, ['t1']), edge('A', 'C', 2, ['t1', 't2']), edge('B', 'C', 1, ['t2'])]),
    )
    expect(pairs(out.relationships)).toEqual([
      ['A', 'B', 1, ['t1']],
      ['A', 'C', 2, ['t1', 't2']],
      ['B', 'C', 1, ['t2']],
    ])
  })

  it('sorts unique pairs given out of order', () => {
    const out = fromRawGraph(resolution([edge('B', 'C', 1, ['t2']), edge('A', 'C', 2, ['t1'])]))
    expect(pairs(out.relationships)).toEqual([
      ['A', 'C', 2, ['t1']],
      ['B', 'C', 1, ['t2']],
    ])
  })

  it('merges a pair a merge made twice (once reversed): weights summed, text units unioned', () => {
    const out = fromRawGraph(
      resolution([edge('A', 'B', 1, ['t1']), edge('B', 'A', 2, ['t1', 't3']), edge('B', 'C', 1, ['t2'])]),
    )
    expect(pairs(out.relationships)).toEqual([
      ['A', 'B', 3, ['t1', 't3']],
      ['B', 'C', 1, ['t2']],
    ])
  })

  it('merges a repeated pair even when the rows are in order', () => {
    const out = fromRawGraph(resolution([edge('A', 'B', 1, ['t1']), edge('A', 'B', 1, ['t2'])]))
    expect(pairs(out.relationships)).toEqual([['A', 'B', 2, ['t1', 't2']]])
  })
})

describe('toRawGraph and fromRawGraph', () => {
  it('turn noun-graph rows into raw rows and back in place: the same row objects, the same content', () => {
    const row = (source: string, target: string, units: string[], description: string) => ({
      source,
      target,
      weight: units.length,
      text_unit_ids: units,
      description,
    })
    const relationships = [row('A', 'B', ['t1'], ''), row('A', 'C', ['t1', 't2'], 'seen together')]
    const expected = structuredClone(relationships)
    const raw = toRawGraph({ entities: [], relationships })
    expect(raw.relationships.map((r) => r.description)).toEqual([[], ['seen together']])
    raw.relationships.forEach((r, i) => expect(r).toBe(relationships[i]))
    const back = fromRawGraph(resolution(raw.relationships))
    expect(back.relationships).toEqual(expected)
    back.relationships.forEach((r, i) => expect(r).toBe(relationships[i]))
  })
})
