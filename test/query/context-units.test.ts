import { describe, expect, it } from 'vitest'
import type { EntityRow, RelationshipRow } from '../../src/model/index.js'
import { historyBlock, parseHistory, recentQuestions } from '../../src/query/context/history.js'
import { selectRelationships } from '../../src/query/context/relationships.js'
import { driftLocalOptions } from '../../src/query/search/drift-actions.js'
import { splitFolds } from '../../src/query/search/drift-primer.js'
import { reduceNotes } from '../../src/query/search/drift.js'
import { reduceContext } from '../../src/query/search/global.js'
import { QueryError } from '../../src/errors.js'
import { SETTINGS } from '../../src/config/schema.js'

const count = (t: string) => t.length

function entity(title: string, i: number): EntityRow {
  return {
    id: title,
    human_readable_id: i,
    title,
    type: 'T',
    description: '',
    text_unit_ids: [],
    frequency: 1,
    degree: 1,
  }
}
function rel(source: string, target: string, rank: number, i: number): RelationshipRow {
  return {
    id: `${source}-${target}`,
    human_readable_id: i,
    source,
    target,
    description: '',
    weight: 1,
    combined_degree: rank,
    text_unit_ids: [],
  }
}

describe('relationship selection', () => {
  const selected = [entity('A', 0), entity('B', 1)]
  const rels = [
    rel('A', 'B', 1, 0),
    rel('A', 'X', 9, 1),
    rel('B', 'Y', 8, 2),
    rel('A', 'Z', 5, 3),
    rel('Z', 'B', 2, 4),
    rel('Q', 'R', 99, 5),
  ]

  it('puts in-network first, then out-network by shared links and rank, capped at k per entity', () => {
    expect(selectRelationships(selected, rels, 10).map((r) => r.id)).toEqual(['A-B', 'A-Z', 'Z-B', 'A-X', 'B-Y'])
    expect(selectRelationships(selected, rels, 1).map((r) => r.id)).toEqual(['A-B', 'A-Z', 'Z-B'])
  })
})

describe('conversation history', () => {
  const turns = parseHistory(
    [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: 'second answer' },
      { role: 'user', content: 'third question' },
    ],
    'h.json',
  )

  it('keeps the newest turns within max turns and budget, shown oldest first', () => {
    expect(recentQuestions(turns, 2)).toEqual(['third question', 'second question'])
    const block = historyBlock(turns, 2, 1000, count)
    expect(block.text).toBe(
      '-----Conversation History-----\nturn|content\nuser|second question\nassistant|second answer\nuser|third question\n',
    )
    const tight = historyBlock(turns, 5, 70, count)
    expect(tight.records.map((r) => r.content)).toEqual(['third question'])
  })

  it('rejects malformed history files', () => {
    expect(() => parseHistory({ role: 'user' }, 'h.json')).toThrow(QueryError)
    expect(() => parseHistory([{ role: 'bot', content: 'x' }], 'h.json')).toThrow(/turn 1/)
  })
})

describe('reduce budgets', () => {
  it('global: best points first, skipping ones that do not fit, dropping score 0', () => {
    const points = [
      { analyst: 0, description: 'x'.repeat(100), score: 90 },
      { analyst: 1, description: 'short', score: 50 },
      { analyst: 2, description: 'zero', score: 0 },
    ]
    const text = reduceContext(points, 60, count)
    expect(text).toBe('----Analyst 2----\nImportance Score: 50\nshort')
  })

  it('DRIFT: notes in order under data_max_tokens', () => {
    expect(reduceNotes(['a', 'b'.repeat(50), 'c'], 40, count)).toBe('----Note 1----\na\n\n----Note 2----\nc')
  })

  it('DRIFT primer folds are contiguous, balanced and never empty', () => {
    expect(splitFolds([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7],
    ])
    expect(splitFolds([1, 2], 5)).toEqual([[1], [2]])
    expect(splitFolds([], 5)).toEqual([])
  })

  it('DRIFT local steps keep a share for entities and relationships with the default props', () => {
    const options = driftLocalOptions(SETTINGS.default.drift_search, 5)
    expect(1 - options.communityProp - options.textUnitProp).toBeCloseTo(0.25)
    expect(options.textUnitProp / options.communityProp).toBeCloseTo(9)
  })
})
