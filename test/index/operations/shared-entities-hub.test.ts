/**
 * A hub entity (in more than 64 units) pairs each unit only with the 16 nearest units on each side
 * that mention it, clipped at the ends of the list (issue 46, item 3: a window that ran past the
 * start of the list went unnoticed).
 */
import { describe, expect, it } from 'vitest'
import { sharedEntityEdges } from '../../../src/index/operations/chunk-graph/shared-entities.js'
import type { ChunkUnit } from '../../../src/index/operations/chunk-graph/types.js'

const UNITS = 100
const units: ChunkUnit[] = Array.from({ length: UNITS }, (_, i) => ({
  id: `u${i}`,
  human_readable_id: i,
  document_id: 'd',
  text: `unit ${i}`,
  entity_ids: ['hub'],
}))
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `u${from + i}`)

describe('shared-entity edges of a hub entity', () => {
  const edges = sharedEntityEdges(units, new Map([['hub', 'HUB']]), 1)
  const targetsOf = (source: string) => edges.filter((e) => e.source === source).map((e) => e.target)

  it('clips the window at the start and the end of the list', () => {
    expect(targetsOf('u0')).toEqual(range(1, 16))
    expect(targetsOf('u5')).toEqual([...range(0, 4), ...range(6, 21)])
    expect(targetsOf('u99')).toEqual(range(83, 98))
  })

  it('takes 16 on each side in the middle', () => {
    expect(targetsOf('u50')).toEqual([...range(34, 49), ...range(51, 66)])
  })
})
