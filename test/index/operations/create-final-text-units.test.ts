// create_final_text_units against the Christmas Carol reference index (spec reference-index.md §5.10).
import { describe, expect, it } from 'vitest'
import { createFinalTextUnits } from '../../../src/index/operations/create-final-text-units.js'
import { COVARIATES, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'

describeShared('create_final_text_units on the reference index', () => {
  it('rebuilds every column of the reference text_units from the base rows', async () => {
    const store = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
    const reference = await store.read(TEXT_UNITS)
    const base = reference.map(({ id, document_id, text, n_tokens }) => ({ id, document_id, text, n_tokens }))
    const out = createFinalTextUnits(
      base,
      await store.read(ENTITIES),
      await store.read(RELATIONSHIPS),
      await store.read(COVARIATES),
    )
    expect(out).toEqual(reference)
  })
})

describe('create_final_text_units', () => {
  it('lists citing ids in table order, keeps repeats, numbers rows and defaults to []', () => {
    const units = [
      { id: 't1', document_id: 'd', text: 'a', n_tokens: 1 },
      { id: 't2', document_id: 'd', text: 'b', n_tokens: 2 },
    ]
    const out = createFinalTextUnits(
      units,
      [
        { id: 'e2', text_unit_ids: ['t1'] },
        { id: 'e1', text_unit_ids: ['t1', 't1'] },
      ],
      [{ id: 'r1', text_unit_ids: ['t2'] }],
      undefined,
    )
    expect(out).toEqual([
      {
        id: 't1',
        human_readable_id: 0,
        text: 'a',
        n_tokens: 1,
        document_id: 'd',
        entity_ids: ['e2', 'e1', 'e1'],
        relationship_ids: [],
        covariate_ids: [],
      },
      {
        id: 't2',
        human_readable_id: 1,
        text: 'b',
        n_tokens: 2,
        document_id: 'd',
        entity_ids: [],
        relationship_ids: ['r1'],
        covariate_ids: [],
      },
    ])
  })
})
