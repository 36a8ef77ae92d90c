import { describe, expect, it } from 'vitest'
import { buildHybridContext, type ContextInput } from '../../../src/query/hybrid/context.js'
import type { ReachedEntity } from '../../../src/query/hybrid/graph-path.js'
import type { RankedCandidate } from '../../../src/query/hybrid/ranking.js'
import type { TextUnitRow } from '../../../src/model/index.js'

const unit = (id: string, n: number, text: string) =>
  [id, { id, human_readable_id: n, text, document_id: 'd1' } as unknown as TextUnitRow] as const

const candidate = (id: string): RankedCandidate => ({
  id,
  signals: { bm25: { score: 2, rank: 0 } } as unknown as RankedCandidate['signals'],
  fused: 1,
  fusedNorm: 1,
  bonuses: { shared_entities: 0, cooccurrence: 0, edge: 0, degree: 0 },
  edge: undefined,
  composite: 1,
  rank: 0,
  reason: 'bm25',
})

const entity = (title: string, hops: number, via?: { source: string; target: string }): ReachedEntity =>
  ({
    entity: { title, description: `about  ${title} | more` },
    hops,
    weight: 1,
    via: via === undefined ? undefined : { ...via, description: 'linked', weight: 2 },
  }) as unknown as ReachedEntity

function input(maxTokens: number, reached: ReachedEntity[] = []): ContextInput {
  return {
    ranked: [candidate('u1'), candidate('missing'), candidate('u2')],
    units: new Map([unit('u1', 1, ' Marley was dead. '), unit('u2', 2, 'Scrooge knew he was dead.')]),
    documentTitles: new Map([['d1', 'A Christmas Carol']]),
    topN: 5,
    external: [{ id: 'memo', text: 'An external note.' }],
    reports: [
      { report: { id: 'r1', community: 3, title: 'Ghosts', full_content: 'The ghosts.' } as never, score: 0.5 },
    ],
    reached,
    maxTokens,
    // One token per character keeps the budget arithmetic readable.
    countTokens: (text) => text.length,
  }
}

describe('buildHybridContext', () => {
  it('labels units, forced external passages and reports in order, then the graph paths, within the budget', () => {
    const reached = [entity('Scrooge', 0), entity('Marley', 1, { source: 'Scrooge', target: 'Marley' })]
    const context = buildHybridContext(input(10_000, reached))
    expect(context.sources.map((s) => [s.label, s.kind, s.id, s.title])).toEqual([
      ['S1', 'text_unit', 'u1', 'A Christmas Carol'],
      ['S2', 'text_unit', 'u2', 'A Christmas Carol'],
      ['S3', 'external', 'memo', null],
      ['S4', 'community_report', 'r1', 'Ghosts'],
    ])
    expect(context.texts.get('S1')).toBe(' Marley was dead. ')
    expect(context.text).toBe(
      '-----Sources-----\n[S1] (text unit 1)\nMarley was dead.\n\n[S2] (text unit 2)\nScrooge knew he was dead.\n\n' +
        '[S3] (external memo)\nAn external note.\n\n[S4] (community report 3: Ghosts)\nThe ghosts.\n\n\n' +
        '-----Entities on the graph paths-----\nentity|description|hops\n' +
        'Scrooge|about Scrooge / more|0\nMarley|about Marley / more|1\n\n' +
        '-----Relationships on the graph paths-----\nsource|target|description|weight\nScrooge|Marley|linked|2\n',
    )
    expect(context.records).toEqual({
      sources: [
        { label: 'S1', id: 'u1', kind: 'text_unit' },
        { label: 'S2', id: 'u2', kind: 'text_unit' },
        { label: 'S3', id: 'memo', kind: 'external' },
        { label: 'S4', id: 'r1', kind: 'community_report' },
      ],
      entities: [
        { entity: 'Scrooge', description: 'about  Scrooge | more', hops: 0 },
        { entity: 'Marley', description: 'about  Marley | more', hops: 1 },
      ],
      relationships: [{ source: 'Scrooge', target: 'Marley', description: 'linked', weight: 2 }],
    })
  })

  it('stops the units at the first that does not fit, still adds the external passage, then has no room left', () => {
    // "[S1] (text unit 1)\nMarley was dead.\n\n" is 37 characters: the second unit does not fit in 50.
    const context = buildHybridContext(input(50, [entity('Scrooge', 0)]))
    expect(context.sources.map((s) => s.label + s.kind)).toEqual(['S1text_unit', 'S2external'])
    expect(context.records.entities).toEqual([])
    expect(context.text).not.toContain('graph paths')
  })

  it('keeps an entity whose relationship does not fit, without the relationship', () => {
    const reached = [entity('Marley', 1, { source: 'Scrooge', target: 'Marley' })]
    // Sources cost 37 + 49 + 37 + 51 = 174; the entity line 27 fits in 10 more, the relationship line (22) does not.
    const context = buildHybridContext(input(174 + 30, reached))
    expect(context.records.entities).toHaveLength(1)
    expect(context.records.relationships).toEqual([])
    expect(context.text).not.toContain('Relationships')
  })

  it('ends the entity list at the first entity that does not fit: a nearer entity never gives way to a farther one', () => {
    // Sources cost 174; "Bo|about Bo / more|1" costs 21 and would fit in 30, the long title before it does not.
    const reached = [entity('Marley'.repeat(10), 0), entity('Bo', 1)]
    const context = buildHybridContext(input(174 + 30, reached))
    expect(context.records.entities).toEqual([])
    expect(context.text).not.toContain('graph paths')
  })
})
