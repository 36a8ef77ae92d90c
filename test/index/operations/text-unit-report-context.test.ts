import { describe, expect, it } from 'vitest'
import { buildTextUnitContexts } from '../../../src/index/operations/text-unit-report-context.js'
import type { CommunityRow } from '../../../src/model/communities.js'

const community = (id: number, level: number, entityIds: string[], units: string[]): CommunityRow => ({
  id: `c${id}`,
  human_readable_id: id,
  community: id,
  level,
  parent: -1,
  children: [],
  title: `Community ${id}`,
  entity_ids: entityIds,
  relationship_ids: [],
  text_unit_ids: units,
  period: '2026-01-15',
  size: entityIds.length,
})

describe('text-unit report context', () => {
  const input = {
    communities: [community(0, 0, ['a', 'b'], ['t0', 't1', 't2', 't1']), community(1, 0, ['c'], [])],
    entities: [
      { id: 'a', degree: 3, text_unit_ids: ['t0', 't1'] },
      { id: 'b', degree: 5, text_unit_ids: ['t1'] },
      { id: 'c', degree: 1, text_unit_ids: ['t2'] },
    ],
    textUnits: [
      { id: 't0', human_readable_id: 0, text: 'First, with a comma.' },
      { id: 't1', human_readable_id: 1, text: 'Second "quoted".' },
      { id: 't2', human_readable_id: 2, text: 'Third' },
    ],
  }

  it('ranks units by the summed degree of the members they contain, keeps unit 0, and renders CSV', () => {
    const [first, second] = buildTextUnitContexts(input, 10_000, (t) => t.length)
    expect(first.text).toBe(
      '-----SOURCES-----\nid,text,entity_degree\n1,"Second ""quoted"".",8\n0,"First, with a comma.",3\n2,Third,0\n',
    )
    expect(first.records).toBe(3)
    expect(second).toEqual({ community: 1, level: 0, text: '', sections: [], records: 0 })
  })

  it('trims to the longest prefix within budget, or keeps everything when nothing fits', () => {
    const count = (t: string) => t.length
    const all = buildTextUnitContexts(input, 10_000, count)[0]!.text
    const one = '-----SOURCES-----\nid,text,entity_degree\n1,"Second ""quoted"".",8\n'
    expect(buildTextUnitContexts(input, one.length, count)[0]!.text).toBe(one)
    expect(buildTextUnitContexts(input, one.length + 5, count)[0]!.text).toBe(one)
    expect(buildTextUnitContexts(input, 5, count)[0]!.text).toBe(all)
  })
})
