import { describe, expect, it } from 'vitest'
import { buildVector, readColumn, type StringInterner } from '../../src/storage/arrow-columns.js'

describe('reading with a string interner', () => {
  it('gives the same values and keeps one entry per distinct short string, across columns', () => {
    const unitId = 'a'.repeat(128)
    const long = 'x'.repeat(300)
    const interner: StringInterner = new Map()
    const lists = readColumn(buildVector('list<string>', [[unitId, 'u2'], [unitId], ['u2', unitId]]), interner)
    const titles = readColumn(buildVector('string', ['Scrooge', long, 'Scrooge', null]), interner)
    expect(lists).toEqual([[unitId, 'u2'], [unitId], ['u2', unitId]])
    expect(titles).toEqual(['Scrooge', long, 'Scrooge', null])
    // Strings past 256 UTF-8 bytes (texts, descriptions) are rarely repeated: not kept in the map.
    expect([...interner.keys()].sort()).toEqual(['Scrooge', unitId, 'u2'].sort())
  })

  it('reads without one as before', () => {
    expect(readColumn(buildVector('list<string>', [['u1'], []]))).toEqual([['u1'], []])
  })
})
