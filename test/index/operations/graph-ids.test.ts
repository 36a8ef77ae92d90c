// Graph ids must stay stable across versions (updates merge by id): pinned values, computed outside this
// code base (Python hashlib: SHA-256 of the key, first 16 bytes as a version-8 UUID).
import { createHash } from 'node:crypto'
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

  it('are SHA-256 of the key as a version-8 UUID for every variant digit, any text', () => {
    // The byte-wise formatting they were first made with, as the reference.
    const reference = (key: string) => {
      const bytes = createHash('sha256').update(key, 'utf8').digest().subarray(0, 16)
      bytes[6] = (bytes[6]! & 0x0f) | 0x80
      bytes[8] = (bytes[8]! & 0x3f) | 0x80
      const hex = bytes.toString('hex')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    }
    const variants = new Set<string>()
    const titles = ['', 'A', 'Ωmega', 'lone \ud800 surrogate', 'emoji 🎄', 'tab\tnew\nline']
    for (let i = 0; i < 400; i++) titles.push(`ENTITY ${i}`)
    for (const title of titles) {
      expect(entityId(title), title).toBe(reference(title))
      expect(relationshipId(title, 'B')).toBe(reference(`${title}\u0000B`))
      variants.add(entityId(title)[19]!)
    }
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b'])
  })
})
