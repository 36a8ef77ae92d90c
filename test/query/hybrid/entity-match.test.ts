import { describe, expect, it } from 'vitest'
import type { EntityRow } from '../../../src/model/index.js'
import { buildNameIndex, matchEntities } from '../../../src/query/hybrid/entity-match.js'

const entity = (id: string, title: string): EntityRow => ({
  id,
  human_readable_id: 0,
  title,
  type: '',
  description: '',
  text_unit_ids: [],
  frequency: 1,
  degree: 1,
})
const ENTITIES = [
  entity('g', 'GHOST OF CHRISTMAS PAST'),
  entity('f', 'ALDWICK FERRY COOPERATIVE'),
  entity('t', '東京'),
  entity('w', 'WHO'),
]

describe('question entities → graph entities', () => {
  it("matches through normalised names, aliases, longer names that contain them, and the question's own n-grams", () => {
    const index = buildNameIndex(ENTITIES, [
      { title: 'GHOST OF CHRISTMAS PAST', alias: 'The Spirit of Past Christmases' },
    ])
    expect(matchEntities(['the Ghost of Christmas Past!'], '', index).matched.map((e) => e.id)).toEqual(['g'])
    expect(matchEntities(['spirit of past christmases'], '', index).matched.map((e) => e.id)).toEqual(['g'])
    expect(matchEntities(['Ferry Cooperative'], '', index).matched.map((e) => e.id)).toEqual(['f'])
    // One word is too common to match inside a longer name.
    expect(matchEntities(['Ferry'], '', index)).toEqual({ matched: [], unmatched: ['Ferry'] })
    expect(matchEntities([], 'Where is 東京?', index).matched.map((e) => e.id)).toEqual(['t'])
    expect(matchEntities([], 'What did the Ghost of Christmas Past show?', index).matched.map((e) => e.id)).toEqual([
      'g',
    ])
  })
})
