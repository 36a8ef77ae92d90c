// create_communities and its edge preparation against GraphRAG's fixtures and reference index
// (spec reference-index.md §5.9).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildCommunityRows, createCommunities } from '../../../src/index/operations/create-communities.js'
import { clusterGraph, prepareEdges, type ClusterGraphOptions } from '../../../src/index/operations/cluster-graph.js'
import {
  COMMUNITIES,
  ENTITIES,
  RELATIONSHIPS,
  type CommunityRow,
  type RelationshipRow,
} from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const COMPAT: ClusterGraphOptions = {
  max_cluster_size: 10,
  use_lcc: true,
  seed: 0xdeadbeef,
  mode: 'compat',
  max_iterations: 1,
}
const QUALITY: ClusterGraphOptions = { ...COMPAT, mode: 'quality', max_iterations: 3 }

/** Minimal RFC 4180 reader (quoted fields may hold commas, quotes and newlines). */
function readCsv(text: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else if (ch !== '\r') field += ch
  }
  if (field.length > 0 || row.length > 0) rows.push([...row, field])
  const [header, ...body] = rows
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])))
}

function fixtureRelationships(): RelationshipRow[] {
  return readCsv(readFileSync(sharedPath('leiden', 'graphrag_relationships_raw.csv'), 'utf8')).map((r) => ({
    id: r.id,
    human_readable_id: Number(r.human_readable_id),
    source: r.source,
    target: r.target,
    description: r.description,
    weight: Number(r.weight),
    combined_degree: Number(r.combined_degree),
    text_unit_ids: [...r.text_unit_ids.matchAll(/'([^']+)'/g)].map((m) => m[1]),
  }))
}

function perLevel(rows: ReadonlyArray<Pick<CommunityRow, 'level'>>): Record<number, number> {
  const out: Record<number, number> = {}
  for (const r of rows) out[r.level] = (out[r.level] ?? 0) + 1
  return out
}

/**
 * Each community is connected through its own relationships, and they reach every member entity.
 * (Relationship endpoints need not be entities: the reference has a few such names.)
 */
function expectConnected(rows: CommunityRow[], titleOf: Map<string, string>, rels: Map<string, RelationshipRow>): void {
  for (const row of rows) {
    const adj = new Map<string, string[]>()
    for (const id of row.relationship_ids) {
      const r = rels.get(id)
      if (!r) throw new Error(`unknown relationship ${id}`)
      adj.set(r.source, [...(adj.get(r.source) ?? []), r.target])
      adj.set(r.target, [...(adj.get(r.target) ?? []), r.source])
    }
    const first = [...adj.keys()][0]
    const seen = new Set([first])
    const stack = [first]
    while (stack.length > 0)
      for (const u of adj.get(stack.pop() as string) ?? []) if (!seen.has(u)) seen.add(u), stack.push(u)
    expect(seen.size, `community ${row.community} is disconnected`).toBe(adj.size)
    for (const id of row.entity_ids) expect(seen.has(titleOf.get(id) as string)).toBe(true)
  }
}

describeShared('cluster_graph edge preparation', () => {
  it("turns GraphRAG's relationships.csv into exactly the edge list graspologic was fed", () => {
    const expected = readFileSync(sharedPath('leiden', 'graphrag_christmas_carol_lcc_edges.tsv'), 'utf8')
      .trim()
      .split('\n')
    const { edges } = prepareEdges(fixtureRelationships(), true)
    expect(edges.map(([s, t, w]) => `${s}\t${t}\t${w.toFixed(1)}`)).toEqual(expected)
  })

  it('gives the pinned 122 clusters {0: 23, 1: 65, 2: 32, 3: 2} in compat mode', () => {
    expect(perLevel(clusterGraph(fixtureRelationships(), COMPAT, undefined).clusters)).toEqual({
      0: 23,
      1: 65,
      2: 32,
      3: 2,
    })
  })

  it('yields 122 communities with ids 0–121 when every title is an entity', () => {
    const rels = fixtureRelationships()
    const titles = [...new Set(rels.flatMap((r) => [r.source, r.target]))]
    const entities = titles.map((title, i) => ({ id: `e${i}`, title }))
    const { rows } = createCommunities(entities, rels, COMPAT, '2026-01-15', undefined)
    expect(perLevel(rows)).toEqual({ 0: 23, 1: 65, 2: 32, 3: 2 })
    expect(rows.map((r) => r.community)).toEqual(Array.from({ length: 122 }, (_, i) => i))
  })
})

describeShared('create_communities on the Christmas Carol reference index', () => {
  const dir = (): string => sharedPath('reference', 'christmas-carol-index')

  for (const [name, options] of [
    ['compat', COMPAT],
    ['quality', QUALITY],
  ] as const) {
    it(`${name}: reference schema, connected communities, consistent tree`, async () => {
      const store = new ParquetTableStore(dir())
      const entities = await store.read(ENTITIES)
      const relationships = await store.read(RELATIONSHIPS)
      const { rows } = createCommunities(entities, relationships, options, '2026-01-15', undefined)
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) expect(Object.keys(row)).toEqual(COMMUNITIES.columns.map((c) => c.name))
      expectConnected(rows, new Map(entities.map((e) => [e.id, e.title])), new Map(relationships.map((r) => [r.id, r])))
      const byId = new Map(rows.map((r) => [r.community, r]))
      for (const row of rows) {
        expect(row.size).toBe(row.entity_ids.length)
        expect(row.title).toBe(`Community ${row.community}`)
        if (row.level === 0) expect(row.parent).toBe(-1)
        else expect(byId.get(row.parent)?.level).toBe(row.level - 1)
        for (const child of row.children) expect(byId.get(child)?.parent).toBe(row.community)
      }
      const sorted = [...rows].sort((a, b) => a.level - b.level || a.community - b.community)
      expect(rows).toEqual(sorted)
      // Deterministic: the same input gives byte-identical rows.
      expect(createCommunities(entities, relationships, options, '2026-01-15', undefined).rows).toEqual(rows)
    })
  }

  it('compat mode reproduces the reference communities (membership, relationships, text units, tree)', async () => {
    const store = new ParquetTableStore(dir())
    const reference = await store.read(COMMUNITIES)
    const { rows } = createCommunities(
      await store.read(ENTITIES),
      await store.read(RELATIONSHIPS),
      COMPAT,
      '2026-01-15',
      undefined,
    )
    expect(perLevel(rows)).toEqual(perLevel(reference))
    const strip = (r: CommunityRow): unknown => ({ ...r, id: undefined, period: undefined })
    expect(rows.map(strip)).toEqual(reference.map(strip))
  })
})

describe('create_communities rows', () => {
  const rel = (id: string, source: string, target: string, units: string[]): RelationshipRow => ({
    id,
    human_readable_id: 0,
    source,
    target,
    description: '',
    weight: 1,
    combined_degree: 0,
    text_unit_ids: units,
  })

  it('drops communities without an internal relationship or without entities; lists children', () => {
    const clusters = [
      { level: 0, cluster: 0, parent: -1, nodes: ['A', 'B', 'C'] },
      { level: 0, cluster: 1, parent: -1, nodes: ['D'] },
      { level: 1, cluster: 2, parent: 0, nodes: ['A', 'B'] },
      { level: 1, cluster: 3, parent: 0, nodes: ['C'] },
    ]
    const entities = ['A', 'B', 'C', 'D'].map((t) => ({ id: `id-${t}`, title: t }))
    const rels = [rel('r2', 'B', 'C', ['t2', 't1']), rel('r1', 'A', 'B', ['t1']), rel('r3', 'C', 'D', ['t3'])]
    const rows = buildCommunityRows(clusters, entities, rels, '2026-01-15', undefined)
    expect(rows.map((r) => [r.community, r.children, r.relationship_ids, r.text_unit_ids, r.entity_ids])).toEqual([
      [0, [2], ['r1', 'r2'], ['t1', 't2'], ['id-A', 'id-B', 'id-C']],
      [2, [], ['r1'], ['t1'], ['id-A', 'id-B']],
    ])
    // The id hashes the community number and its entity ids: the same members keep the same id.
    expect(rows[0].id).toBe('4ed02dd1-f288-80d8-b867-cc3b9a91690a')
    expect(rows[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(rows[0].period).toBe('2026-01-15')
  })

  it('returns no rows for no relationships', () => {
    expect(createCommunities([], [], COMPAT, '2026-01-15', undefined)).toEqual({ rows: [], nonPositiveEdges: 0 })
  })
})
