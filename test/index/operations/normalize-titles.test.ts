import { describe, expect, it } from 'vitest'
import { normalizeTitles } from '../../../src/index/operations/extract-graph/normalize-titles.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../src/model/raw-graph.js'

const entity = (title: string, units: string[], type = 'PERSON'): RawEntityRow => ({
  title,
  type,
  description: [`${title} desc`],
  text_unit_ids: units,
  frequency: units.length,
})
const rel = (source: string, target: string, weight: number, units: string[]): RawRelationshipRow => ({
  source,
  target,
  description: [`${source}->${target}`],
  text_unit_ids: units,
  weight,
})

describe('extract_graph.normalize_titles', () => {
  it('merges spellings under the most frequent one, keeps the others as aliases, and re-points relationships', () => {
    const out = normalizeTitles(
      [
        entity('The Ghost of Christmas Past', ['u1']),
        entity('SCROOGE', ['u1', 'u2']),
        entity('GHOST OF CHRISTMAS PAST', ['u2', 'u3'], 'EVENT'),
        entity('Scrooge.', ['u4']),
      ],
      [
        rel('The Ghost of Christmas Past', 'SCROOGE', 1, ['u1']),
        rel('GHOST OF CHRISTMAS PAST', 'Scrooge.', 2, ['u3']),
        rel('SCROOGE', 'Scrooge.', 5, ['u4']),
      ],
    )
    expect(out.entities).toEqual([
      {
        title: 'GHOST OF CHRISTMAS PAST',
        type: 'EVENT',
        description: ['The Ghost of Christmas Past desc', 'GHOST OF CHRISTMAS PAST desc'],
        text_unit_ids: ['u1', 'u2', 'u3'],
        frequency: 3,
      },
      {
        title: 'SCROOGE',
        type: 'PERSON',
        description: ['SCROOGE desc', 'Scrooge. desc'],
        text_unit_ids: ['u1', 'u2', 'u4'],
        frequency: 3,
      },
    ])
    expect(out.relationships).toEqual([
      {
        source: 'GHOST OF CHRISTMAS PAST',
        target: 'SCROOGE',
        description: ['The Ghost of Christmas Past->SCROOGE', 'GHOST OF CHRISTMAS PAST->Scrooge.'],
        text_unit_ids: ['u1', 'u3'],
        weight: 3,
      },
    ])
    expect(out.droppedSelfLoops).toBe(1)
    expect(out.aliases).toEqual([
      { title: 'GHOST OF CHRISTMAS PAST', alias: 'The Ghost of Christmas Past', normalized: 'ghost of christmas past' },
      { title: 'SCROOGE', alias: 'Scrooge.', normalized: 'scrooge' },
    ])
  })

  it('leaves a graph without variant spellings unchanged', () => {
    const entities = [entity('A', ['u1']), entity('B', ['u2'])]
    const relationships = [rel('A', 'B', 1, ['u1'])]
    expect(normalizeTitles(entities, relationships)).toEqual({
      entities,
      relationships,
      aliases: [],
      droppedSelfLoops: 0,
    })
  })
})
