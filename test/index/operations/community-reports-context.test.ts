import { describe, expect, it } from 'vitest'
import { buildLocalContexts } from '../../../src/index/operations/community-reports/context.js'
import { renderFull, renderTrimmed } from '../../../src/index/operations/community-reports/context-render.js'
import { toCsv } from '../../../src/index/operations/community-reports/csv.js'
import {
  buildCommunityContext,
  type SubCommunity,
} from '../../../src/index/operations/community-reports/substitution.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import type { CommunityRow, CovariateRow, EntityRow, RelationshipRow } from '../../../src/model/index.js'

const count = (text: string): number => getTokenizer('o200k_base').count(text)

function entity(i: number, title: string, degree: number, description = `${title} description`): EntityRow {
  return {
    id: `e${i}`,
    human_readable_id: i,
    title,
    type: 'person',
    description,
    text_unit_ids: [],
    frequency: 1,
    degree,
  }
}
function rel(
  i: number,
  source: string,
  target: string,
  combined: number,
  description = `${source} knows ${target}`,
): RelationshipRow {
  return {
    id: `r${i}`,
    human_readable_id: i,
    source,
    target,
    description,
    weight: 1,
    combined_degree: combined,
    text_unit_ids: [],
  }
}
function community(c: number, level: number, entityIds: string[], parent: number, children: number[]): CommunityRow {
  return {
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level,
    parent,
    children,
    title: `Community ${c}`,
    entity_ids: entityIds,
    relationship_ids: [],
    text_unit_ids: [],
    period: '2026-01-15',
    size: entityIds.length,
  }
}
function claim(i: number, subject: string, description: string): CovariateRow {
  return {
    id: `k${i}`,
    human_readable_id: i,
    covariate_type: 'claim',
    type: 'FRAUD',
    description,
    subject_id: subject,
    object_id: null,
    status: 'SUSPECTED',
    start_date: null,
    end_date: null,
    source_text: null,
    text_unit_id: 't1',
  }
}

// SCROOGE has three relationships inside community 0: one entity carrying several edges is the
// case the reference's one-edge-per-entity quirk loses.
const ENTITIES = [
  entity(0, 'SCROOGE', 3),
  entity(1, 'MARLEY', 2),
  entity(2, 'CRATCHIT', 2, 'Clerk, "underpaid"'),
  entity(3, 'FRED', 1),
  entity(4, 'TINY TIM', 1),
]
const RELATIONSHIPS = [
  rel(0, 'SCROOGE', 'MARLEY', 5),
  rel(1, 'SCROOGE', 'CRATCHIT', 5),
  rel(2, 'SCROOGE', 'FRED', 4),
  rel(3, 'MARLEY', 'CRATCHIT', 4),
  rel(4, 'CRATCHIT', 'TINY TIM', 3),
]
const COMMUNITIES = [
  community(0, 0, ['e0', 'e1', 'e2', 'e3', 'e4'], -1, [1, 2]),
  community(1, 1, ['e0', 'e1', 'e3'], 0, []),
  community(2, 1, ['e2', 'e4'], 0, []),
]
const CLAIMS = [claim(0, 'SCROOGE', 'Underpays his clerk'), claim(1, 'NOBODY', 'not a member')]

const contexts = buildLocalContexts({
  entities: ENTITIES,
  relationships: RELATIONSHIPS,
  communities: COMMUNITIES,
  claims: CLAIMS,
})

describe('CSV rendering', () => {
  it('follows pandas to_csv QUOTE_MINIMAL with \\n line ends and a trailing newline', () => {
    expect(
      toCsv(
        ['a', 'b', 'c'],
        [
          [1, 'x,y', 'say "hi"'],
          [2.5, 'line\nbreak', null],
          [3, 'cr\r', ' plain '],
        ],
      ),
    ).toBe('a,b,c\n1,"x,y","say ""hi"""\n2.5,"line\nbreak",\n3,"cr\r", plain \n')
  })
})

describe('local community context', () => {
  it('holds every relationship of the community, ranked by combined degree, with entities and claims', () => {
    const { text } = renderFull(contexts.get(0)!, count)
    expect(text).toBe(
      [
        '-----Entities-----',
        'human_readable_id,title,description,degree',
        '0,SCROOGE,SCROOGE description,3',
        '1,MARLEY,MARLEY description,2',
        '2,CRATCHIT,"Clerk, ""underpaid""",2',
        '3,FRED,FRED description,1',
        '4,TINY TIM,TINY TIM description,1',
        '',
        '',
        '-----Claims-----',
        'human_readable_id,subject_id,type,status,description',
        '0,SCROOGE,FRAUD,SUSPECTED,Underpays his clerk',
        '',
        '',
        '-----Relationships-----',
        'human_readable_id,source,target,description,combined_degree',
        '0,SCROOGE,MARLEY,SCROOGE knows MARLEY,5',
        '1,SCROOGE,CRATCHIT,SCROOGE knows CRATCHIT,5',
        '2,SCROOGE,FRED,SCROOGE knows FRED,4',
        '3,MARLEY,CRATCHIT,MARLEY knows CRATCHIT,4',
        '4,CRATCHIT,TINY TIM,CRATCHIT knows TINY TIM,3',
        '',
      ].join('\n'),
    )
  })

  it('includes relationships leaving the community but lists only member entities', () => {
    const { text } = renderFull(contexts.get(1)!, count)
    expect(text).toContain('1,SCROOGE,CRATCHIT,SCROOGE knows CRATCHIT,5')
    expect(text).toContain('3,MARLEY,CRATCHIT,MARLEY knows CRATCHIT,4')
    expect(text).not.toContain('2,CRATCHIT,')
    expect(text).not.toContain('4,CRATCHIT,TINY TIM')
    expect(text).toContain('0,SCROOGE,FRAUD,SUSPECTED,Underpays his clerk')
    expect(text).not.toContain('NOBODY')
  })

  it('lists members without any relationship too', () => {
    const lone = buildLocalContexts({
      entities: [entity(0, 'GHOST', 0), ...ENTITIES.slice(1, 2)],
      relationships: [],
      communities: [community(0, 0, ['e0', 'e1'], -1, [])],
      claims: null,
    })
    expect(renderFull(lone.get(0)!, count).text).toBe(
      '-----Entities-----\nhuman_readable_id,title,description,degree\n1,MARLEY,MARLEY description,2\n0,GHOST,GHOST description,0\n',
    )
  })

  it('trims by model tokens, dropping the lowest-ranked relationships first', () => {
    const ctx = contexts.get(0)!
    const full = renderFull(ctx, count)
    const trimmed = renderTrimmed(ctx, full.tokens - 1, count)
    expect(trimmed.tokens).toBeLessThanOrEqual(full.tokens - 1)
    expect(trimmed.tokens).toBe(count(trimmed.text))
    expect(trimmed.text).not.toContain('CRATCHIT knows TINY TIM')
    expect(trimmed.text).not.toContain('4,TINY TIM')
    expect(trimmed.text).toContain('MARLEY knows CRATCHIT')
    // Each allowed prefix is the longest one: one more relationship would not fit.
    for (let budget = 20; budget < full.tokens; budget += 7) {
      const t = renderTrimmed(ctx, budget, count)
      const relCount = (t.text.match(/ knows /g) ?? []).length
      if (relCount > 1) expect(t.tokens).toBeLessThanOrEqual(budget)
    }
    // Even an impossible budget keeps the top relationship.
    expect(renderTrimmed(ctx, 1, count).text).toContain('SCROOGE knows MARLEY')
  })
})

describe('sub-community report substitution', () => {
  const subs = (reports: Record<number, string>): SubCommunity[] =>
    [1, 2].map((c) => ({
      community: c,
      size: COMMUNITIES[c]!.size,
      members: new Set(COMMUNITIES[c]!.entity_ids.map((id) => ENTITIES[Number(id.slice(1))]!.title)),
      fullContent: reports[c],
    }))

  it('uses the own context when it fits', () => {
    const ctx = contexts.get(0)!
    const result = buildCommunityContext(ctx, subs({ 1: '# A', 2: '# B' }), 10_000, count)
    expect(result.substituted).toEqual([])
    expect(result.text).toBe(renderFull(ctx, count).text)
  })

  it('over budget, substitutes the largest sub-community report first and drops its members', () => {
    const ctx = contexts.get(0)!
    const budget = renderFull(ctx, count).tokens - 5
    const result = buildCommunityContext(
      ctx,
      subs({ 1: '# Scrooge and Marley', 2: '# Cratchit family' }),
      budget,
      count,
    )
    expect(result.substituted).toEqual([1])
    expect(result.tokens).toBeLessThanOrEqual(budget)
    expect(
      result.text.startsWith(
        '-----Reports-----\ncommunity,full_content\n1,# Scrooge and Marley\n\n\n-----Entities-----',
      ),
    ).toBe(true)
    // Members of community 1 are covered by its report; edges between two covered members go too.
    expect(result.text).not.toContain('0,SCROOGE,SCROOGE description')
    expect(result.text).not.toContain('SCROOGE knows MARLEY')
    expect(result.text).not.toContain('SCROOGE knows FRED')
    expect(result.text).not.toContain('Underpays his clerk')
    // Relationships linking covered and uncovered members stay.
    expect(result.text).toContain('SCROOGE knows CRATCHIT')
    expect(result.text).toContain('4,TINY TIM,TINY TIM description,1')
  })

  it('takes more reports when one is not enough, and keeps at least one report when none fits', () => {
    const ctx = contexts.get(0)!
    const long = 'word '.repeat(40)
    const two = buildCommunityContext(ctx, subs({ 1: '# S', 2: '# C' }), 25, count)
    expect(two.substituted).toEqual([1, 2])
    expect(two.text).toBe('-----Reports-----\ncommunity,full_content\n1,# S\n2,# C\n')
    const one = buildCommunityContext(ctx, subs({ 1: long, 2: long }), 60, count)
    expect(one.substituted).toEqual([1])
    expect(one.text).toBe(`-----Reports-----\ncommunity,full_content\n1,${long}\n`)
  })

  it('when the reports do not all fit, fills the budget left by the kept reports with uncovered rows', () => {
    const ctx = contexts.get(0)!
    const long = 'word '.repeat(40)
    const expected = [
      `-----Reports-----\ncommunity,full_content\n1,${long}\n`,
      '-----Entities-----\nhuman_readable_id,title,description,degree\n2,CRATCHIT,"Clerk, ""underpaid""",2\n',
      '-----Relationships-----\nhuman_readable_id,source,target,description,combined_degree\n' +
        '1,SCROOGE,CRATCHIT,SCROOGE knows CRATCHIT,5\n3,MARLEY,CRATCHIT,MARLEY knows CRATCHIT,4\n',
    ].join('\n\n')
    // Community 2's long report does not fit next to community 1's; the two best-ranked rows of the
    // members community 1 leaves uncovered do, the third (CRATCHIT–TINY TIM) does not.
    const result = buildCommunityContext(ctx, subs({ 1: long, 2: long.repeat(4) }), count(expected) + 3, count)
    expect(result.substituted).toEqual([1])
    expect(result.text).toBe(expected)
  })

  it('skips sub-communities without a report and trims the own context when there is none', () => {
    const ctx = contexts.get(0)!
    const budget = renderFull(ctx, count).tokens - 5
    const onlySecond = buildCommunityContext(ctx, subs({ 2: '# Cratchit family' }), budget, count)
    expect(onlySecond.substituted).toEqual([2])
    const none = buildCommunityContext(ctx, subs({}), budget, count)
    expect(none.substituted).toEqual([])
    expect(none.text).toBe(renderTrimmed(ctx, budget, count).text)
  })
})
