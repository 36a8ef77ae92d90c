// What a replay of an unchanged community's report works with, made without the long way round: the
// anchor key read off the stored value's JSON instead of a parsed report, and entity details (with
// their fingerprint parts) shared by one entity's communities at every level.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { buildLocalContexts } from '../../../src/index/operations/community-reports/context.js'
import { anchorKey, anchorKeyOfJson } from '../../../src/index/operations/community-reports/stale-reuse.js'
import { type StoredReport, tableIdentityMaps } from '../../../src/index/operations/community-reports/stable-reuse.js'
import {
  reportFingerprint,
  storedValueParts,
} from '../../../src/index/operations/community-reports/unchanged-reports.js'
import type { CommunityRow, EntityRow, RelationshipRow } from '../../../src/model/index.js'
import { communityRow, entityRow } from '../../support/report-rows.js'

const ORIGIN = 'ab'.repeat(32)

// Report texts holding what the value's structure is made of: quotes, the refs and origin keys, `"}`.
const STORED: StoredReport = {
  report: {
    title: 'The "refs" of it,"refs":[] and "}',
    summary: 'Back\\slash ,"origin":"x"} and ünïcödé \u2028 [Data: Entities (@0, @1)]',
    findings: [{ summary: '{"report":1}', explanation: 'tab\there, "quoted" [Data: Relationships (@2)]' }],
    rating: 7.5,
    rating_explanation: 'lone \ud800 surrogate',
  },
  refs: [
    ['Entities', 'ALICE "A"'],
    ['Entities', 'BOB,"refs":'],
    ['Relationships', 'ALICE "A"\u0000BOB'],
  ],
}

describe('a stored report value read without parsing', () => {
  it('gives the origin and the anchor key the parsed report gives, for every community', () => {
    const parts = storedValueParts(JSON.stringify({ ...STORED, origin: ORIGIN }))
    expect(parts.origin).toBe(ORIGIN)
    for (const community of [0, 7, 12345]) {
      expect(anchorKeyOfJson(parts.reportAndRefs, community)).toBe(anchorKey(STORED, community))
    }
  })

  it('does not parse the report of a value in the written form', () => {
    const parts = storedValueParts(`{"report":{"not json,"refs":[["Entities","A"]],"origin":"${ORIGIN}"}`)
    expect(parts).toEqual({ origin: ORIGIN, reportAndRefs: '{"not json,[["Entities","A"]]' })
  })

  it('parses a value in another form and gives the same', () => {
    for (const value of [
      JSON.stringify({ origin: ORIGIN, ...STORED }),
      JSON.stringify({ ...STORED, origin: ORIGIN }, null, 1),
      JSON.stringify({ ...STORED, origin: 'not-a-hash' }),
    ]) {
      const parts = storedValueParts(value)
      expect(parts.origin).toBe(JSON.parse(value).origin)
      expect(anchorKeyOfJson(parts.reportAndRefs, 3)).toBe(anchorKey(STORED, 3))
    }
  })
})

const entity = (i: number): EntityRow => entityRow(i, { type: 'thing', degreeModulo: 5 })

const community = (c: number, level: number, ids: string[]): CommunityRow => communityRow(c, level, ids, '2026-01-01')

describe('entity details shared across levels', () => {
  it('give every community of every level its own members’ details and fingerprint bytes', () => {
    const entities = Array.from({ length: 40 }, (_, i) => entity(i))
    const relationships: RelationshipRow[] = Array.from({ length: 39 }, (_, i) => ({
      id: `r${i}`,
      human_readable_id: i,
      source: `E${i}`,
      target: `E${i + 1}`,
      description: `link ${i}`,
      weight: 1,
      combined_degree: i % 3,
      text_unit_ids: [],
    }))
    const ids = (from: number, count: number) => Array.from({ length: count }, (_, k) => `e${from + k}`)
    const communities = [
      ...Array.from({ length: 4 }, (_, c) => community(c, 0, ids(c * 10, 10))),
      ...Array.from({ length: 8 }, (_, c) => community(4 + c, 1, ids(c * 5, 5))),
      ...Array.from({ length: 20 }, (_, c) => community(12 + c, 2, ids(c * 2, 2).reverse())),
    ]
    const contexts = buildLocalContexts({ entities, relationships, communities, claims: null })
    const maps = tableIdentityMaps(entities, relationships, null)
    // Twice, so the second pass reads every part kept by the first.
    for (let pass = 0; pass < 2; pass++) {
      for (const c of communities) {
        const local = contexts.get(c.community)!
        const rows = c.entity_ids.map((id) => entities[Number(id.slice(1))]!)
        expect([...local.members.values()]).toEqual(
          rows.map((e) => ({
            human_readable_id: e.human_readable_id,
            title: e.title,
            description: e.description,
            degree: e.degree,
          })),
        )
        const expected = createHash('sha256').update('basis')
        for (const e of rows)
          expected.update(JSON.stringify(['e', e.human_readable_id, e.title, e.description, e.degree]))
        for (const r of local.edges)
          expected.update(
            JSON.stringify(['r', r.human_readable_id, r.source, r.target, r.description, r.combined_degree]),
          )
        expect(reportFingerprint(local, [], maps, 'basis')).toBe(expected.digest('hex'))
      }
    }
  })
})
