/**
 * The noun graph resolved on its pair columns gives what the row path gives (buildNounGraph's rows
 * through resolveEntities), and stays in columns only when resolution renames nothing.
 */
import { describe, expect, it } from 'vitest'
import { buildNounGraph } from '../../../src/index/operations/build-noun-graph.js'
import { fromRawGraph, resolveEntities, toRawGraph } from '../../../src/index/workflows/entity-resolution-step.js'
import { resolvedNounGraph } from '../../../src/index/workflows/noun-graph-resolution.js'
import { createTestContext } from '../../support/workflow-context.js'

type Units = { id: string; phrases: string[] }[]

/** Both paths on fresh projects with the same settings and files; their graphs and stats counters. */
async function bothPaths(units: Units, files: Record<string, string> = {}, normalize = true) {
  const settingsYaml = `extract_graph_nlp:\n  normalize_edge_weights: ${normalize}\n`
  const rows = await createTestContext({ settingsYaml, files })
  const expected = fromRawGraph(
    await resolveEntities(rows.ctx, toRawGraph(buildNounGraph(units, { normalize_edge_weights: normalize })), 'fast'),
  )
  const columns = await createTestContext({ settingsYaml, files })
  const actual = await resolvedNounGraph(columns.ctx, units, normalize)
  return {
    expected,
    actual: { entities: actual.entities, relationships: actual.relationships.slice() },
    inColumns: !Array.isArray(actual.relationships),
    counters: [rows.stats.counters, columns.stats.counters],
  }
}

// 'THE' is a stop word and 'X' too short (noise); 'TIME' is generic; the rest are names.
const NOISY: Units = [
  { id: 'u0', phrases: ['SCROOGE', 'THE', 'MARLEY', 'X'] },
  { id: 'u1', phrases: ['BOB CRATCHIT', 'SCROOGE', 'TIME'] },
  { id: 'u2', phrases: ['MARLEY', 'THE', 'BOB CRATCHIT', 'SCROOGE'] },
  { id: 'u3', phrases: ['TINY TIM', 'X', 'SCROOGE'] },
]

describe('resolvedNounGraph', () => {
  it('drops the pairs of noise entities in the columns, as the row path does', async () => {
    for (const normalize of [true, false]) {
      const { expected, actual, inColumns, counters } = await bothPaths(NOISY, {}, normalize)
      expect(inColumns).toBe(true)
      expect(actual).toEqual(expected)
      expect(actual.relationships.some((r) => r.source === 'THE' || r.target === 'X')).toBe(false)
      expect(actual.relationships.length).toBeGreaterThan(3)
      expect(counters[1]).toEqual(counters[0])
      expect(counters[1]!.noise_relationships).toBeGreaterThan(0)
    }
  })

  it('merges renamed spellings on the columns, as the row path merges them', async () => {
    const units: Units = [...NOISY, { id: 'u4', phrases: ['Scrooge', 'MARLEY', 'TINY TIM'] }]
    const { expected, actual, inColumns, counters } = await bothPaths(units)
    expect(inColumns).toBe(true)
    expect(actual).toEqual(expected)
    expect(counters[1]).toEqual(counters[0])
    expect(actual.entities.filter((e) => e.title.toUpperCase() === 'SCROOGE')).toHaveLength(1)
  })

  it('merges both directions, self-loops and untouched pairs like the row path (random units)', async () => {
    // Lower-case spellings sort after every upper-case one, so a rename can turn a pair around.
    const pool = ['SCROOGE', 'Scrooge', 'scrooge', 'MARLEY', 'MARLEYS', 'BOB', 'BOBS', 'bob', 'TIM', 'Tim', 'FRED']
    pool.push('ZED', 'zed', 'ALPHA', 'alpha', 'ALPHAS', 'GHOST', 'GHOSTS', 'ghost', 'KEY', 'DOOR')
    let state = 9
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (const normalize of [true, false]) {
      const units: Units = Array.from({ length: 40 }, (_, u) => ({
        id: `u${u}`,
        phrases: Array.from({ length: 2 + Math.floor(next() * 7) }, () => pool[Math.floor(next() * pool.length)]!),
      }))
      const { expected, actual, inColumns, counters } = await bothPaths(units, {}, normalize)
      expect(inColumns).toBe(true)
      expect(actual).toEqual(expected)
      expect(counters[1]).toEqual(counters[0])
      expect(counters[0]!.merged_spellings).toBeGreaterThan(5)
    }
  })

  it('applies curation rules through the rows', async () => {
    const files = { 'curation.yaml': 'rules:\n  - { action: delete, entity: TINY TIM }\n' }
    const { expected, actual, inColumns } = await bothPaths(NOISY, files)
    expect(inColumns).toBe(false)
    expect(actual).toEqual(expected)
    expect(actual.relationships.some((r) => r.target === 'TINY TIM')).toBe(false)
  })

  it('takes the rows when code-point and UTF-16 order differ (the row path sorts by the latter)', async () => {
    // U+FF21 sorts before an astral letter by code point, after it by UTF-16 unit.
    const units: Units = [
      { id: 'u0', phrases: ['\uFF21LPHA', '𝒜BEL', 'SCROOGE'] },
      { id: 'u1', phrases: ['𝒜BEL', 'SCROOGE'] },
    ]
    const { expected, actual, inColumns } = await bothPaths(units)
    expect(inColumns).toBe(false)
    expect(actual).toEqual(expected)
  })
})
