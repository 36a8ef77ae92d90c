import { describe, expect, it } from 'vitest'
import type { RawRelationshipRow } from '../../../../src/model/raw-graph.js'
import { rewireRelationships } from '../../../../src/index/operations/entity-resolution/merge-relationships.js'

const edge = (source: string, target: string, weight: number, units: string[]): RawRelationshipRow => ({
  source,
  target,
  weight,
  text_unit_ids: units,
  description: [`${source}-${target}`],
})
const same = (t: string) => t
const summary = (rows: RawRelationshipRow[]) => rows.map((r) => [r.source, r.target, r.weight, r.text_unit_ids])

describe('rewireRelationships', () => {
  it('returns unique ordered pairs with no renamed endpoint as they are, without copying a row', () => {
    const input = [edge('A', 'B', 1, ['t1']), edge('A', 'C', 2, ['t2']), edge('B', 'C', 1, ['t3'])]
    const out = rewireRelationships(input, same)
    expect(out).toEqual({ relationships: input, droppedSelfLoops: 0 })
    expect(out.relationships).not.toBe(input)
    out.relationships.forEach((row, i) => expect(row).toBe(input[i]))
  })

  it('changes no input row when pairs merge or endpoints are renamed; rows nothing touched are passed on', () => {
    const canonical = (t: string) => (t === 'Bee' ? 'B' : t)
    const input = [
      edge('A', 'B', 1, ['t1']),
      edge('A', 'C', 1, ['t4']),
      edge('A', 'Bee', 1, ['t2']),
      edge('A', 'B', 2, ['t3']),
      edge('Bee', 'C', 1, ['t5']),
    ]
    const before = structuredClone(input)
    const out = rewireRelationships(input, canonical)
    expect(input).toEqual(before)
    expect(summary(out.relationships)).toEqual([
      ['A', 'B', 4, ['t1', 't2', 't3']],
      ['A', 'C', 1, ['t4']],
      ['B', 'C', 1, ['t5']],
    ])
    const [merged, untouched, renamed] = out.relationships
    expect(merged).not.toBe(input[0])
    expect(merged!.description).not.toBe(input[0]!.description)
    expect(untouched).toBe(input[1])
    expect(renamed!.text_unit_ids).not.toBe(input[4]!.text_unit_ids)
  })

  it('merges a pair repeated in order', () => {
    const out = rewireRelationships([edge('A', 'B', 1, ['t1']), edge('A', 'B', 2, ['t1', 't2'])], same)
    expect(summary(out.relationships)).toEqual([['A', 'B', 3, ['t1', 't2']]])
    expect(out.relationships[0]!.description).toEqual(['A-B', 'A-B'])
  })

  it('merges pairs that a rename makes coincide, and drops the one a rename makes a self-loop', () => {
    const canonical = (t: string) => (t === 'Bee' ? 'B' : t)
    const out = rewireRelationships(
      [edge('A', 'B', 1, ['t1']), edge('A', 'Bee', 1, ['t2']), edge('B', 'Bee', 1, ['t3'])],
      canonical,
    )
    expect(summary(out.relationships)).toEqual([['A', 'B', 2, ['t1', 't2']]])
    expect(out.droppedSelfLoops).toBe(1)
  })
})
