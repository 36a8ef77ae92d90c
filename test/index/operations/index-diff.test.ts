import { describe, expect, it } from 'vitest'
import { diffKeyed, integrityProblems } from '../../../src/index/operations/index-diff.js'

describe('index diff', () => {
  it('counts added, removed, changed and unchanged rows by key', () => {
    const before = [
      { k: 'a', v: '1' },
      { k: 'b', v: '2' },
      { k: 'c', v: '3' },
    ]
    const after = [
      { k: 'a', v: '1' },
      { k: 'b', v: '9' },
      { k: 'd', v: '4' },
    ]
    expect(
      diffKeyed(
        before,
        after,
        (r) => r.k,
        (r) => r.v,
      ),
    ).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1 })
  })

  it('names every dangling reference a deleted document could leave', () => {
    const problems = integrityProblems({
      documentIds: ['d1'],
      textUnits: [
        { id: 't1', document_id: 'd1' },
        { id: 't2', document_id: 'gone' },
      ],
      entities: [
        { title: 'A', text_unit_ids: ['t1'] },
        { title: 'B', text_unit_ids: ['t9'] },
        { title: 'C', text_unit_ids: [] },
      ],
      relationships: [{ source: 'A', target: 'Z', text_unit_ids: ['t1'] }],
      covariates: [{ id: 'c1', text_unit_id: 't8' }],
    })
    expect(problems).toEqual([
      'text unit t2: document gone is not in documents',
      'entity "B": text unit t9 is not in text_units',
      'entity "C": no text unit supports it',
      'relationship "A" -> "Z": entity "Z" is not in entities',
      'claim c1: text unit t8 is not in text_units',
    ])
    expect(
      integrityProblems({
        documentIds: ['d1'],
        textUnits: [{ id: 't1', document_id: 'd1' }],
        entities: [{ title: 'A', text_unit_ids: ['t1'] }],
        relationships: [],
      }),
    ).toEqual([])
  })
})
