/** Bounded staleness of update reports: the keep/regenerate rules, lost content and predecessors on hand-made rows. */
import { describe, expect, it } from 'vitest'
import type { ContextSection } from '../../../src/index/operations/community-reports/context-rows.js'
import { canonicalContext, identityMaps, rowKey } from '../../../src/index/operations/community-reports/stable-reuse.js'
import {
  anchorKey,
  anchorOf,
  predecessors,
  reportBasis,
  rowName,
  rowsLosingContent,
  staleDecision,
  storedReports,
  unitsGone,
} from '../../../src/index/operations/community-reports/stale-reuse.js'
import type { CommunityRow } from '../../../src/model/communities.js'
import type { CommunityReportRow } from '../../../src/model/community-reports.js'
import type { CovariateRow } from '../../../src/model/covariates.js'
import type { EntityRow } from '../../../src/model/entities.js'
import type { RelationshipRow } from '../../../src/model/relationships.js'

const TITLES = ['ALPHA', 'BETA', 'GAMMA', 'DELTA', 'EPSILON']
const maps = identityMaps({
  Entities: TITLES.map((identity, i) => ({ human_readable_id: i, identity })),
  Relationships: [
    { human_readable_id: 0, identity: 'ALPHA\u0000BETA' },
    { human_readable_id: 1, identity: 'BETA\u0000GAMMA' },
  ],
  Claims: [],
})

/** The anchor of a context of entities (index, description) and relationships (index, description). */
function rows(entities: Array<[number, string]>, relationships: Array<[number, string]> = [], reports: string[] = []) {
  const ends = [
    ['ALPHA', 'BETA'],
    ['BETA', 'GAMMA'],
  ]
  const sections: ContextSection[] = [
    {
      label: 'Entities',
      columns: ['human_readable_id', 'title', 'description', 'degree'],
      rows: entities.map(([i, d]) => ({
        table: 'Entities',
        id: i,
        identity: TITLES[i]!,
        fields: [TITLES[i]!, d],
        degree: 1,
      })),
    },
    {
      label: 'Relationships',
      columns: ['human_readable_id', 'source', 'target', 'description', 'combined_degree'],
      rows: relationships.map(([i, d]) => ({
        table: 'Relationships',
        id: i,
        identity: `${ends[i]![0]!}\u0000${ends[i]![1]!}`,
        fields: [ends[i]![0]!, ends[i]![1]!, d],
        degree: 2,
      })),
    },
    {
      label: 'Reports',
      columns: ['community', 'full_content'],
      rows: reports.map((r, i) => ({ table: 'Reports', id: i, identity: '', fields: [r] })),
    },
  ]
  const canonical = canonicalContext(sections, maps)
  if (canonical === undefined) throw new Error('unmapped context')
  return anchorOf(canonical.rows, 'basis')
}

const FOUR: Array<[number, string]> = [
  [0, 'a'],
  [1, 'b'],
  [2, 'c'],
  [3, 'd'],
]

describe('staleDecision', () => {
  it('keeps a report whose context gained rows within the bound, measuring the Jaccard distance of rows', () => {
    const anchor = rows(FOUR, [[0, 'trade']])
    const now = rows(FOUR, [
      [0, 'trade'],
      [1, 'sail'],
    ])
    expect(staleDecision(anchor, now, new Set(), 0.2)).toEqual({ keep: true, change: expect.closeTo(1 / 6) })
    expect(staleDecision(anchor, now, new Set(), 0.1)).toMatchObject({ keep: false, reason: 'changed too much' })
  })

  it('counts a row whose text changed as one removed and one added, and a member that moved away as removed', () => {
    const anchor = rows(FOUR)
    expect(
      staleDecision(
        anchor,
        rows([
          [0, 'a'],
          [1, 'b'],
          [2, 'c'],
          [3, 'd, and more'],
        ]),
        new Set(),
        1,
      ).change,
    ).toBeCloseTo(2 / 5)
    expect(staleDecision(anchor, rows(FOUR.slice(0, 3)), new Set(), 1)).toEqual({
      keep: true,
      change: expect.closeTo(1 / 4),
    })
  })

  it('regenerates when a row the report was written from lost content, however small the change', () => {
    const anchor = rows(FOUR, [[0, 'trade']])
    const gone = rowName(rowKey('Relationships', 'ALPHA\u0000BETA'))
    expect(staleDecision(anchor, rows(FOUR), new Set([gone]), 0.5)).toMatchObject({
      keep: false,
      reason: 'content removed',
    })
    // A description rewritten after losing a text unit: what the lost text said may be in the report.
    const edited = rowName(rowKey('Entities', 'DELTA'))
    const rewritten = rows([...FOUR.slice(0, 3), [3, 'd2']], [[0, 'trade']])
    expect(staleDecision(anchor, rewritten, new Set([edited]), 0.5)).toMatchObject({ reason: 'content removed' })
    // The same row unchanged in text lost nothing (another text unit says the same).
    expect(staleDecision(anchor, rows(FOUR, [[0, 'trade']]), new Set([edited]), 0.5)).toEqual({ keep: true, change: 0 })
  })

  it('never keeps a report written with another prompt, word limit or model', () => {
    const anchor = rows(FOUR)
    const otherModel = { ...rows(FOUR), basis: reportBasis('prompt', 2000, 'gpt-4.1') }
    expect(reportBasis('prompt', 2000, 'gpt-4.1')).not.toBe(reportBasis('prompt', 2000, 'gpt-4.1-mini'))
    expect(reportBasis('prompt', 2000, 'gpt-4.1')).not.toBe(reportBasis('prompt', 1500, 'gpt-4.1'))
    expect(staleDecision(anchor, otherModel, new Set(), 1)).toEqual({
      keep: false,
      change: 0,
      reason: 'written otherwise',
    })
  })

  it('measures two empty contexts as unchanged, and a context emptied as changed entirely', () => {
    const empty = { basis: 'b', rows: [] }
    expect(staleDecision(empty, empty, new Set(), 0)).toEqual({ keep: true, change: 0 })
    expect(staleDecision({ basis: 'b', rows: ['m1'] }, empty, new Set(), 0.99)).toEqual({
      keep: false,
      change: 1,
      reason: 'changed too much',
    })
  })

  it('regenerates when a substituted sub-community report changed', () => {
    const anchor = rows(FOUR, [], ['child report'])
    expect(staleDecision(anchor, rows(FOUR, [], ['child report, rewritten']), new Set(), 0.9)).toMatchObject({
      keep: false,
      reason: 'sub-report changed',
    })
  })
})

const entity = (title: string, units: string[]): EntityRow =>
  ({ id: `id-${title}`, title, text_unit_ids: units }) as unknown as EntityRow
const relationship = (source: string, target: string, units: string[]): RelationshipRow =>
  ({ source, target, text_unit_ids: units }) as unknown as RelationshipRow

describe('rowsLosingContent', () => {
  it('names the rows gone from the index and those that lost a text unit, not those that only gained', () => {
    const previous = {
      entities: [entity('ALPHA', ['t1', 't2']), entity('BETA', ['t2']), entity('GAMMA', ['t3'])],
      relationships: [relationship('ALPHA', 'BETA', ['t2']), relationship('BETA', 'GAMMA', ['t3'])],
      claims: null,
    }
    const current = {
      entities: [entity('ALPHA', ['t1']), entity('GAMMA', ['t3', 't4'])],
      relationships: [relationship('BETA', 'GAMMA', ['t3', 't4'])],
      claims: null,
    }
    expect([...rowsLosingContent(previous, current)].sort()).toEqual(
      [rowKey('Entities', 'ALPHA'), rowKey('Entities', 'BETA'), rowKey('Relationships', 'ALPHA\u0000BETA')]
        .map(rowName)
        .sort(),
    )
  })

  it('names a claim gone or moved to another text unit, and nothing when no table changed', () => {
    const claim = (id: string, unit: string) => ({ id, text_unit_id: unit }) as unknown as CovariateRow
    const tables = (claims: CovariateRow[] | null) => ({
      entities: [entity('ALPHA', ['t1'])],
      relationships: [],
      claims,
    })
    expect(
      [...rowsLosingContent(tables([claim('c1', 't1'), claim('c2', 't2')]), tables([claim('c2', 't3')]))].sort(),
    ).toEqual([rowKey('Claims', 'c1'), rowKey('Claims', 'c2')].map(rowName).sort())
    expect(rowsLosingContent(tables([claim('c1', 't1')]), tables([claim('c1', 't1')])).size).toBe(0)
    expect(rowsLosingContent(tables(null), tables(null)).size).toBe(0)
  })
})

describe('unitsGone', () => {
  it('names the text units of the previous generation the current one lacks, as Sources rows', () => {
    expect(unitsGone([{ id: 'u1' }, { id: 'u2' }, { id: 'u3' }], [{ id: 'u2' }, { id: 'u4' }])).toEqual(
      new Set([rowName(rowKey('Sources', 'u1')), rowName(rowKey('Sources', 'u3'))]),
    )
  })
})

describe('predecessors', () => {
  const community = (n: number, level: number, titles: string[]): CommunityRow =>
    ({ community: n, level, entity_ids: titles.map((t) => `id-${t}`) }) as unknown as CommunityRow
  const entities = TITLES.map((t) => entity(t, []))

  it('pairs each community with the previous one of its level sharing most members, whatever its number', () => {
    const previous = {
      entities,
      communities: [community(0, 0, ['ALPHA', 'BETA', 'GAMMA']), community(1, 0, ['DELTA', 'EPSILON'])],
    }
    // GAMMA moved: the communities took new numbers (the lowest left), their predecessors are found by members.
    const current = {
      entities,
      communities: [community(0, 0, ['GAMMA', 'DELTA', 'EPSILON']), community(2, 0, ['ALPHA', 'BETA'])],
    }
    expect(predecessors(previous, current)).toEqual(
      new Map([
        [0, 1],
        [2, 0],
      ]),
    )
  })

  it('on a tie takes the lower previous number, matches members within their level only, and pairs no new community', () => {
    const previous = {
      entities,
      communities: [
        community(0, 0, ['DELTA', 'EPSILON']),
        community(1, 0, ['ALPHA', 'BETA']),
        community(2, 1, ['GAMMA']),
      ],
    }
    const current = {
      entities: [...entities, entity('ZETA', [])],
      communities: [
        // One member from each of 1 and 0 (met in that order): the lower number, 0.
        community(0, 0, ['ALPHA', 'DELTA']),
        // GAMMA was at level 1, not 0: no predecessor at level 0.
        community(1, 0, ['GAMMA', 'ZETA']),
        community(2, 1, ['GAMMA']),
        // The same tie met the other way round (0, then 1): still 0.
        community(3, 0, ['EPSILON', 'BETA']),
      ],
    }
    expect(predecessors(previous, current)).toEqual(
      new Map([
        [0, 0],
        [2, 2],
        [3, 0],
      ]),
    )
  })
})

describe('anchors of stored reports', () => {
  it("are found again from the previous generation's report row, whatever its ids were renumbered to", () => {
    const report = (summary: string, explanation: string): CommunityReportRow =>
      ({
        community: 3,
        title: 'Alpha community',
        summary,
        findings: [{ explanation, summary: 'Trade' }],
        rank: 4.5,
        rating_explanation: 'Central.',
      }) as unknown as CommunityReportRow
    const renumbered = identityMaps({
      Entities: TITLES.map((identity, i) => ({ human_readable_id: 10 + i, identity })),
      Relationships: [{ human_readable_id: 20, identity: 'ALPHA\u0000BETA' }],
      Claims: [],
    })
    const before = storedReports([report('Alpha [Data: Entities (0, 1)].', 'Trade [Data: Relationships (0)].')], maps)
    const after = storedReports(
      [report('Alpha [Data: Entities (10, 11)].', 'Trade [Data: Relationships (20)].')],
      renumbered,
    )
    expect(anchorKey(after.get(3)!, 3)).toBe(anchorKey(before.get(3)!, 3))
    // A citation of an id the tables lack cannot be carried over: no stored form.
    expect(storedReports([report('Alpha [Data: Entities (99)].', 'x')], maps).size).toBe(0)
  })
})
