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
  identityText,
  type IdentityMaps,
  mergeMaps,
  rowKey,
  tableIdentityMaps,
  textUnitIdentityMaps,
} from '../../../src/index/operations/community-reports/stable-reuse.js'
import type { CovariateRow } from '../../../src/model/covariates.js'
import type { EntityRow } from '../../../src/model/entities.js'
import type { RelationshipRow } from '../../../src/model/relationships.js'

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

/** A report whose only citations are those of `summary`. */
function plain(summary: string): ReportContent {
  return { title: 'T', summary, findings: [], rating: 1, rating_explanation: 'R' }
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

describe('canonical form', () => {
  it('is the sections in order, each headed, its rows by identity and sorted, and no empty section', () => {
    const canonical = canonicalContext(context(OLD), maps(OLD))!
    // The form keys stored reports across runs: a change of it makes every stored report unusable.
    expect(canonical.text).toBe(
      '-----Entities-----\nhuman_readable_id,title,description,degree\n' +
        '"ALPHA",ALPHA,"Alpha runs the mill,\n12 workers there"\n' +
        '"BETA",BETA,Beta owns the boat\n' +
        '\n\n-----Claims-----\nhuman_readable_id,subject_id,type,status,description\n' +
        '"claim-1",ALPHA,FRAUD,TRUE,Alpha hid the ledger\n' +
        '\n\n-----Relationships-----\nhuman_readable_id,source,target,description,combined_degree\n' +
        '"ALPHA\\u0000BETA",ALPHA,BETA,Alpha and Beta trade\n',
    )
    const empty: ContextSection = { label: 'Sources', columns: ['human_readable_id', 'text'], rows: [] }
    expect(canonicalContext([...context(OLD), empty], maps(OLD))!.text).toBe(canonical.text)
  })

  it('names each row across generations: a mapped row by table and identity, a report by its section and text', () => {
    const reportRow: ContextRow = {
      table: 'Reports',
      id: 12,
      identity: '',
      fields: [`# Alpha\n\nAlpha trades [Data: Entities (${OLD.alpha})].`],
    }
    const sections = [
      ...context(OLD).slice(0, 1),
      { label: 'Reports', columns: ['community', 'full_content'], rows: [reportRow] },
    ]
    const canonical = canonicalContext(sections, maps(OLD))!
    const reportText = '12,"# Alpha\n\nAlpha trades [Data: Entities ("ALPHA")]."\n'
    expect(canonical.rows).toEqual([
      { key: rowKey('Entities', 'ALPHA'), text: '"ALPHA",ALPHA,"Alpha runs the mill,\n12 workers there"\n' },
      { key: rowKey('Entities', 'BETA'), text: '"BETA",BETA,Beta owns the boat\n' },
      { key: `Reports\u0000${reportText}`, text: reportText },
    ])
  })

  it('counts ids cited inside a substituted report as shown, and refuses a report citing one in no table', () => {
    const reports = (cited: string): ContextSection[] => [
      {
        label: 'Reports',
        columns: ['community', 'full_content'],
        rows: [{ table: 'Reports', id: 1, identity: '', fields: [`Alpha [Data: ${cited}].`] }],
      },
    ]
    const shown = canonicalContext(reports(`Entities (${OLD.alpha}); Claims (${OLD.claim})`), maps(OLD))!.shown
    expect([...shown.Entities]).toEqual([OLD.alpha])
    expect([...shown.Claims]).toEqual([OLD.claim])
    expect([...shown.Relationships]).toEqual([])
    expect(canonicalContext(reports('Entities (42)'), maps(OLD))).toBeUndefined()
  })

  it('maps citations only inside reports: another unmapped row keeps its text as written', () => {
    const sources: ContextSection = {
      label: 'Sources',
      columns: ['human_readable_id', 'text'],
      rows: [{ table: 'Sources', id: 3, identity: 'unit-3', fields: ['a note reading [Data: Entities (42)]'] }],
    }
    expect(canonicalContext([sources], maps(OLD))!.text).toContain('3,a note reading [Data: Entities (42)]\n')
  })
})

describe('citations', () => {
  const shown = canonicalContext(context(OLD), maps(OLD))!.shown

  it('stores each cited row once, in order of first citation', () => {
    const stored = encodeReport(
      report(
        `A [Data: Entities (${OLD.beta}, ${OLD.alpha}); Relationships (${OLD.edge})] again [Data: Entities (${OLD.beta})].`,
      ),
      maps(OLD),
      shown,
    )!
    expect(stored.refs).toEqual([
      ['Entities', 'BETA'],
      ['Entities', 'ALPHA'],
      ['Relationships', 'ALPHA\u0000BETA'],
      ['Claims', 'claim-1'],
    ])
    expect(stored.report.summary).toBe('A [Data: Entities (@0, @1); Relationships (@2)] again [Data: Entities (@0)].')
  })

  it('renumbers citations written without a space before the parenthesis', () => {
    const stored = encodeReport(report(`A [Data: Entities(${OLD.alpha})].`), maps(OLD), shown)!
    expect(decodeReport(stored, maps(NEW))!.summary).toBe(`A [Data: Entities(${NEW.alpha})].`)
  })

  it('renumbers a report citing more than ten rows', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ human_readable_id: 20 + i, identity: `E${i}` }))
    const moved = many.map((e) => ({ ...e, human_readable_id: e.human_readable_id + 100 }))
    const ids = (rows: typeof many) => rows.map((e) => e.human_readable_id).join(', ')
    const wide = { ...shown, Entities: new Set(many.map((e) => e.human_readable_id)) }
    const stored = encodeReport(report(`Many [Data: Entities (${ids(many)})].`), maps(OLD, many), wide)!
    expect(stored.refs).toHaveLength(13)
    expect(decodeReport(stored, maps(NEW, moved))!.summary).toBe(`Many [Data: Entities (${ids(moved)})].`)
  })

  it('refuses a report when any of its texts cites an id that cannot be stored', () => {
    const ghost = 'Ghost [Data: Entities (42)].'
    const good = report('Fine.')
    for (const broken of [
      { ...good, title: ghost },
      { ...good, summary: ghost },
      { ...good, rating_explanation: ghost },
      { ...good, findings: [...good.findings, { summary: ghost, explanation: 'Fine.' }] },
      { ...good, findings: [{ summary: 'Fine.', explanation: ghost }, ...good.findings] },
    ])
      expect(encodeReport(broken, maps(OLD), shown)).toBeUndefined()
    expect(encodeReport(good, maps(OLD), shown)).toBeDefined()
  })

  it('refuses to store an id shown but in none of the tables', () => {
    const withGhost = { ...shown, Entities: new Set([...shown.Entities, 42]) }
    expect(encodeReport(report('Ghost [Data: Entities (42)].'), maps(OLD), withGhost)).toBeUndefined()
  })

  it('refuses a stored report whose citation is not a stored reference, or one of another table', () => {
    const fine = {
      report: plain('A [Data: Entities (@0)].'),
      refs: [['Entities', 'ALPHA']] as Array<['Entities', string]>,
    }
    expect(decodeReport(fine, maps(NEW))!.summary).toBe(`A [Data: Entities (${NEW.alpha})].`)
    // A plain id, a reference past the end, a reference to a relationship cited as an entity.
    expect(decodeReport({ ...fine, report: plain('A [Data: Entities (0)].') }, maps(NEW))).toBeUndefined()
    expect(decodeReport({ ...fine, report: plain('A [Data: Entities (@1)].') }, maps(NEW))).toBeUndefined()
    const other = { report: plain('A [Data: Entities (@0)].'), refs: [['Relationships', 'ALPHA\u0000BETA']] }
    expect(decodeReport(other as typeof fine, maps(NEW))).toBeUndefined()
    // Even when an entity has that identity: a reference names its table.
    const homonym = maps(NEW, [{ human_readable_id: 11, identity: 'ALPHA\u0000BETA' }])
    expect(decodeReport(other as typeof fine, homonym)).toBeUndefined()
  })
})

describe('identity maps of index tables', () => {
  const entity = (title: string, human_readable_id: number) => ({ title, human_readable_id }) as EntityRow
  const edge = (source: string, target: string, human_readable_id: number) =>
    ({ source, target, human_readable_id }) as RelationshipRow
  const claim = (id: string, human_readable_id: number) => ({ id, human_readable_id }) as CovariateRow
  const generation = (offset: number, claims: boolean) =>
    tableIdentityMaps(
      [entity('ALPHA', offset + 1), entity('BETA', offset + 2)],
      [edge('ALPHA', 'BETA', offset + 3), edge('BETA', 'ALPHA', offset + 4)],
      claims ? [claim('claim-1', offset + 5)] : null,
    )

  it('names entities by title, relationships by source and target, claims by id', () => {
    const old = generation(0, true)
    const next = generation(10, true)
    const text = 'X [Data: Entities (1, 2); Relationships (3, 4); Claims (5)].'
    expect(identityText(text, old)).toBe(
      'X [Data: Entities ("ALPHA", "BETA"); Relationships ("ALPHA\\u0000BETA", "BETA\\u0000ALPHA"); Claims ("claim-1")].',
    )
    expect(
      identityText(
        text.replace(/\d+/g, (d) => String(Number(d) + 10)),
        next,
      ),
    ).toBe(identityText(text, old))
    const everything = {
      Entities: new Set([1, 2]),
      Relationships: new Set([3, 4]),
      Claims: new Set([5]),
      Sources: new Set<number>(),
    }
    expect(decodeReport(encodeReport(plain(text), old, everything)!, next)!.summary).toBe(
      'X [Data: Entities (11, 12); Relationships (13, 14); Claims (15)].',
    )
  })

  it('has an empty claims table when the index has no claims: a cited claim cannot be mapped', () => {
    expect(generation(0, false).tables.has('Claims')).toBe(true)
    expect(identityText('X [Data: Claims (5)].', generation(0, false))).toBeUndefined()
    expect(identityText('X [Data: Claims (5)].', generation(0, true))).toBe('X [Data: Claims ("claim-1")].')
  })

  it('leaves citations of tables it does not hold as written', () => {
    expect(identityText('X [Data: Sources (7); Reports (2)].', generation(0, true))).toBe(
      'X [Data: Sources (7); Reports (2)].',
    )
  })

  it('merges the maps of graph and text-unit contexts, each table from the maps that have it', () => {
    const units = textUnitIdentityMaps([
      { id: 'unit-a', human_readable_id: 7 },
      { id: 'unit-b', human_readable_id: 8 },
    ])
    const merged = mergeMaps(generation(0, true), units)
    expect([...merged.tables].sort()).toEqual(['Claims', 'Entities', 'Relationships', 'Sources'])
    expect(identityText('X [Data: Sources (8); Entities (1)].', merged)).toBe(
      'X [Data: Sources ("unit-b"); Entities ("ALPHA")].',
    )
    expect(identityText('X [Data: Sources (8)].', generation(0, true))).toBe('X [Data: Sources (8)].')
  })
})
