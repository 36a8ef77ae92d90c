/** Report reuse across renumbering: canonical contexts and citation renumbering on hand-made contexts. */
import { describe, expect, it } from 'vitest'
import {
  type ContextRow,
  type ContextSection,
  renderContext,
} from '../../../src/index/operations/community-reports/context-rows.js'
import type { ReportContent } from '../../../src/index/operations/community-reports/render.js'
import {
  canonicalContext,
  canonicalKey,
  decodeReport,
  encodeReport,
  identityMaps,
  type IdentityMaps,
} from '../../../src/index/operations/community-reports/stable-reuse.js'

interface Ids {
  alpha: number
  beta: number
  edge: number
  claim: number
}

function maps(ids: Ids, extra: Array<{ human_readable_id: number; identity: string }> = []): IdentityMaps {
  return identityMaps({
    Entities: [
      { human_readable_id: ids.alpha, identity: 'ALPHA' },
      { human_readable_id: ids.beta, identity: 'BETA' },
      ...extra,
    ],
    Relationships: [{ human_readable_id: ids.edge, identity: 'ALPHA\u0000BETA' }],
    Claims: [{ human_readable_id: ids.claim, identity: 'claim-1' }],
  })
}

function context(
  ids: Ids,
  options: { betaDescription?: string; alphaDegree?: number; betaFirst?: boolean } = {},
): ContextSection[] {
  const alpha: ContextRow = {
    table: 'Entities',
    id: ids.alpha,
    identity: 'ALPHA',
    fields: ['ALPHA', 'Alpha runs the mill,\n12 workers there'],
    degree: options.alphaDegree ?? 2,
  }
  const beta: ContextRow = {
    table: 'Entities',
    id: ids.beta,
    identity: 'BETA',
    fields: ['BETA', options.betaDescription ?? 'Beta owns the boat'],
    degree: 1,
  }
  return [
    {
      label: 'Entities',
      columns: ['human_readable_id', 'title', 'description', 'degree'],
      rows: options.betaFirst === true ? [beta, alpha] : [alpha, beta],
    },
    {
      label: 'Claims',
      columns: ['human_readable_id', 'subject_id', 'type', 'status', 'description'],
      rows: [
        {
          table: 'Claims',
          id: ids.claim,
          identity: 'claim-1',
          fields: ['ALPHA', 'FRAUD', 'TRUE', 'Alpha hid the ledger'],
        },
      ],
    },
    {
      label: 'Relationships',
      columns: ['human_readable_id', 'source', 'target', 'description', 'combined_degree'],
      rows: [
        {
          table: 'Relationships',
          id: ids.edge,
          identity: 'ALPHA\u0000BETA',
          fields: ['ALPHA', 'BETA', 'Alpha and Beta trade'],
          degree: 3,
        },
      ],
    },
  ]
}

const OLD: Ids = { alpha: 3, beta: 5, edge: 7, claim: 0 }
const NEW: Ids = { alpha: 4, beta: 6, edge: 9, claim: 2 }

function report(text: string): ReportContent {
  return {
    title: 'Alpha community',
    summary: text,
    findings: [{ summary: 'Trade', explanation: text }],
    rating: 4.5,
    rating_explanation: 'Central [Data: Claims (0)].',
  }
}

describe('canonicalContext', () => {
  it('is the same for a context whose only change is renumbered human_readable_ids', () => {
    const before = canonicalContext(context(OLD), maps(OLD))?.text
    expect(before).toBeDefined()
    expect(canonicalContext(context(NEW), maps(NEW))?.text).toBe(before)
    expect(renderContext(context(NEW))).not.toBe(renderContext(context(OLD)))
  })

  it('differs when a description changed, so such a report is never reused', () => {
    const before = canonicalContext(context(OLD), maps(OLD))!.text
    expect(canonicalContext(context(NEW, { betaDescription: 'Beta sold the boat' }), maps(NEW))!.text).not.toBe(before)
  })

  it('is the same when only degrees changed and rows moved with them: they say how connected a member is elsewhere', () => {
    const before = canonicalContext(context(OLD), maps(OLD))!.text
    // ALPHA's degree falls below BETA's: the degree-ranked rows swap places.
    const swapped = context(NEW, { alphaDegree: 0, betaFirst: true })
    const text = renderContext(swapped)
    expect(text.indexOf('\n6,BETA')).toBeLessThan(text.indexOf('\n4,ALPHA'))
    expect(canonicalContext(swapped, maps(NEW))!.text).toBe(before)
    expect(canonicalContext(context(NEW, { alphaDegree: 3 }), maps(NEW))!.text).toBe(before)
  })

  it('keeps a quoted multi-line field whole and refuses a row whose id is in no table', () => {
    const canonical = canonicalContext(context(OLD), maps(OLD))!.text
    expect(canonical).toContain('"Alpha runs the mill,\n12 workers there"')
    expect(canonical).not.toMatch(/^3,ALPHA/m)
    expect(canonicalContext(context({ ...OLD, beta: 99 }), maps(OLD))).toBeUndefined()
  })

  it('keys a report by its prompt, word limit and model too: a report another model wrote is not reused', () => {
    const text = canonicalContext(context(OLD), maps(OLD))!.text
    const key = canonicalKey(text, 'prompt', 2000, 'gpt-4.1')
    expect(canonicalKey(canonicalContext(context(NEW), maps(NEW))!.text, 'prompt', 2000, 'gpt-4.1')).toBe(key)
    expect(canonicalKey(text, 'prompt', 2000, 'gpt-4.1-mini')).not.toBe(key)
    expect(canonicalKey(text, 'prompt', 1500, 'gpt-4.1')).not.toBe(key)
    expect(canonicalKey(text, 'other prompt', 2000, 'gpt-4.1')).not.toBe(key)
  })

  it('maps citations inside substituted sub-community reports', () => {
    const reports = (ids: Ids): ContextSection[] => [
      {
        label: 'Reports',
        columns: ['community', 'full_content'],
        rows: [
          {
            table: 'Reports',
            id: 1,
            identity: '',
            fields: [`# Alpha\n\nAlpha trades [Data: Entities (${ids.alpha}, ${ids.beta})].`],
          },
        ],
      },
    ]
    const text = (ids: Ids) => canonicalContext(reports(ids), maps(ids))!.text
    expect(text(NEW)).toBe(text(OLD))
    expect(canonicalContext(reports({ ...NEW, alpha: NEW.beta }), maps(NEW))!.text).not.toBe(text(OLD))
  })
})

describe('encodeReport / decodeReport', () => {
  const shown = canonicalContext(context(OLD), maps(OLD))!.shown
  const cited = (ids: Ids) =>
    `Alpha and Beta trade [Data: Entities (${ids.alpha}, ${ids.beta}, +more); Relationships (${ids.edge}); Reports (12)].`

  it('renumbers every cited id from the old rows to the new ones and leaves other tables alone', () => {
    const stored = encodeReport(report(cited(OLD)), maps(OLD), shown)!
    expect(JSON.stringify(stored.report)).not.toMatch(/Entities \(3/)
    const renumbered = decodeReport(JSON.parse(JSON.stringify(stored)), maps(NEW))!
    expect(renumbered.summary).toBe(cited(NEW))
    expect(renumbered.findings[0]!.explanation).toBe(cited(NEW))
    expect(renumbered.rating_explanation).toBe('Central [Data: Claims (2)].')
    expect(renumbered.rating).toBe(4.5)
  })

  it('gives back the report itself when nothing was renumbered', () => {
    const original = report(cited(OLD))
    expect(decodeReport(encodeReport(original, maps(OLD), shown)!, maps(OLD))).toEqual(original)
  })

  it('refuses a report citing an id its context does not show, or the wrong table, or whose cited row is gone', () => {
    expect(encodeReport(report('Ghost [Data: Entities (42)].'), maps(OLD), shown)).toBeUndefined()
    // 7 is a relationship of the context; as an entity id it would be renumbered as something else.
    expect(
      encodeReport(
        report(`Mixed [Data: Entities (${OLD.alpha}, ${OLD.edge})].`),
        maps(OLD, [{ human_readable_id: 7, identity: 'GAMMA' }]),
        shown,
      ),
    ).toBeUndefined()
    const withGamma = maps(OLD, [{ human_readable_id: 8, identity: 'GAMMA' }])
    const stored = encodeReport(report('Gamma [Data: Entities (8)].'), withGamma, { ...shown, Entities: new Set([8]) })!
    expect(decodeReport(stored, maps(NEW))).toBeUndefined()
  })
})
