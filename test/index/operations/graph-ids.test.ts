// Graph ids must stay stable across versions (updates merge by id): pinned values, computed outside this
// code base (Python hashlib: SHA-256 of the key, first 16 bytes as a version-8 UUID).
import { describe, expect, it } from 'vitest'
import { covariateId, entityId, relationshipId } from '../../../src/index/operations/graph-ids.js'

describe('graph ids', () => {
  it('are the pinned UUIDs of their natural keys', () => {
    expect([entityId('EBENEZER SCROOGE'), entityId('Ωmega "quoted"')]).toEqual([
      '9e2fc171-d83b-8325-a7ed-623649da5d49',
      '23f05a43-11bd-87c0-b291-1a5d910025a9',
    ])
    expect([
      relationshipId('EBENEZER SCROOGE', 'BOB CRATCHIT'),
      relationshipId('BOB CRATCHIT', 'EBENEZER SCROOGE'),
    ]).toEqual(['05ef6e2a-caed-8113-b369-4acb201593c3', '9553dc8c-d56f-8440-accb-ef0c164a6e4d'])
    expect([covariateId('unit-1', 0), covariateId('unit-1', 1)]).toEqual([
      'c2dec195-001d-8ea7-ba91-622ea8cba815',
      '35210c01-6e5e-8cdf-81e4-b0eeade20d86',
    ])
  })
})
