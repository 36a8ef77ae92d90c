import { describe, expect, it } from 'vitest'
import { COMMUNITIES, COMMUNITY_REPORTS } from '../../../src/model/index.js'
import {
  finalizeReports,
  renderFullContent,
  reportId,
  sharedContentReportId,
  type CommunityReportDraft,
} from '../../../src/index/operations/community-reports/render.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const REPORT = {
  title: 'Café “Scrooge” \\ Co',
  summary: 'Line one\nline\ttwo',
  findings: [
    { summary: 'A', explanation: 'first' },
    { summary: 'B', explanation: 'second 🎄' },
  ],
  rating: 7,
  rating_explanation: 'because',
}

/** Community 0 (level 0) with children 1 and 2 (level 1). */
const community = (c: number) => ({
  id: `c${c}`,
  human_readable_id: c,
  community: c,
  level: c === 0 ? 0 : 1,
  parent: c === 0 ? -1 : 0,
  children: c === 0 ? [1, 2] : [],
  title: `Community ${c}`,
  entity_ids: [],
  relationship_ids: [],
  text_unit_ids: [],
  period: '2026-01-15',
  size: 3 - c,
})

describe('report rendering', () => {
  it('renders markdown full_content', () => {
    expect(renderFullContent(REPORT)).toBe(
      '# Café “Scrooge” \\ Co\n\nLine one\nline\ttwo\n\n## A\n\nfirst\n\n## B\n\nsecond 🎄',
    )
  })

  it('renders pydantic-style JSON: 4-space indent, unescaped non-ASCII, integral floats with .0', () => {
    const lone = { ...community(0), children: [] }
    const renderFullContentJson = (report: typeof REPORT) =>
      finalizeReports([{ ...report, community: 0, level: 0 }], [lone])[0]!.full_content_json
    const json = renderFullContentJson(REPORT)
    expect(json).toContain('"rating": 7.0,')
    expect(json).toContain('"title": "Café “Scrooge” \\\\ Co"')
    expect(JSON.parse(json)).toEqual({ ...REPORT, rating: 7 })
    expect(renderFullContentJson({ ...REPORT, rating: 8.5 })).toContain('"rating": 8.5,')
    expect(renderFullContentJson({ ...REPORT, findings: [] })).toContain('"findings": [],')
  })

  it('finalizes deepest level first and joins community fields', () => {
    const drafts: CommunityReportDraft[] = [
      { ...REPORT, community: 0, level: 0 },
      { ...REPORT, community: 2, level: 1 },
      { ...REPORT, community: 1, level: 1 },
    ]
    const communities = [0, 1, 2].map(community)
    const rows = finalizeReports(drafts, communities)
    expect(rows.map((r) => r.community)).toEqual([1, 2, 0])
    expect(rows[2]).toMatchObject({ parent: -1, children: [1, 2], size: 3, human_readable_id: 0, period: '2026-01-15' })
    // Three reports with the same text: the reference's SHA-512 of the text would give them one id.
    expect(new Set(rows.map((r) => r.id)).size).toBe(3)
    expect(rows[0]!.id).toBe(sharedContentReportId(1, 1, rows[0]!.full_content))
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{128}$/)
    expect(finalizeReports([...drafts].reverse(), communities).map((r) => r.id)).toEqual(rows.map((r) => r.id))
    expect(Object.keys(rows[0]!)).toEqual(COMMUNITY_REPORTS.columns.map((c) => c.name))
  })

  it('keeps the reference id (SHA-512 of full_content) for a report whose text is its own', () => {
    const communities = [0, 1].map((c) => ({
      id: `c${c}`,
      human_readable_id: c,
      community: c,
      level: 0,
      parent: -1,
      children: [],
      title: `Community ${c}`,
      entity_ids: [],
      relationship_ids: [],
      text_unit_ids: [],
      period: '2026-01-15',
      size: 1,
    }))
    const rows = finalizeReports(
      [
        { ...REPORT, community: 0, level: 0 },
        { ...REPORT, title: 'Another', community: 1, level: 0 },
      ],
      communities,
    )
    for (const row of rows) expect(row.id).toBe(reportId(row.full_content))
    expect(rows[0]!.id).not.toBe(rows[1]!.id)
  })
})

describeShared('report rendering against the reference index', () => {
  // The Christmas Carol index was written by a GraphRAG build that used uuid4().hex report ids;
  // Dulce (3.x) uses sha512(full_content), which is what the issue asks of us.
  for (const [index, shaIds] of [
    ['christmas-carol-index', false],
    ['msgr-v3-dulce', true],
  ] as const) {
    it(`re-renders every ${index} report byte for byte`, async () => {
      const store = new ParquetTableStore(sharedPath('reference', index))
      const reports = await store.read(COMMUNITY_REPORTS)
      const communities = await store.read(COMMUNITIES)
      expect(reports.length).toBeGreaterThan(0)
      const drafts: CommunityReportDraft[] = reports.map((r) => ({
        community: r.community,
        level: r.level,
        title: r.title,
        summary: r.summary,
        findings: r.findings.map((f) => ({ summary: f.summary, explanation: f.explanation })),
        rating: r.rank,
        rating_explanation: r.rating_explanation,
      }))
      for (const [i, draft] of drafts.entries()) {
        const ref = reports[i]!
        expect(renderFullContent(draft)).toBe(ref.full_content)
        if (shaIds) expect(reportId(ref.full_content)).toBe(ref.id)
      }
      // Every column, full_content_json included, as the reference wrote it.
      const finalized = finalizeReports(drafts, communities)
      const withoutId = (rows: readonly { id: string }[]): unknown[] => rows.map(({ id: _id, ...rest }) => rest)
      expect(withoutId(finalized)).toEqual(withoutId(reports))
      if (shaIds) expect(finalized.map((r) => r.id)).toEqual(reports.map((r) => r.id))
    })
  }
})
