// Communities across an update: numbers kept for unchanged member sets, a valid hierarchy after
// renumbering, the seeded clustering through create_communities, and the 1 % modularity guard.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hierarchicalLeiden, type WeightedEdge } from '../../../src/graph/leiden/index.js'
import type { Cluster, ClusterGraphOptions } from '../../../src/index/operations/cluster-graph.js'
import { clusterGraph } from '../../../src/index/operations/cluster-graph.js'
import { previousCommunities } from '../../../src/index/operations/community-continuity.js'
import { buildCommunityRows, createCommunities } from '../../../src/index/operations/create-communities.js'
import { entityId } from '../../../src/index/operations/graph-ids.js'
import type { CommunityRow } from '../../../src/model/index.js'
import { levelAssignment, plantedPartition } from '../../graph/leiden/graphs.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const QUALITY: ClusterGraphOptions = {
  max_cluster_size: 10,
  use_lcc: true,
  seed: 0xdeadbeef,
  mode: 'quality',
  max_iterations: 10,
}
const PERIOD = '2026-11-23'

const entitiesOf = (titles: Iterable<string>) => [...new Set(titles)].map((title) => ({ id: entityId(title), title }))

function relationshipsOf(edges: ReadonlyArray<WeightedEdge>) {
  return edges.map(([source, target, weight], i) => ({
    id: `r${i}`,
    source,
    target,
    weight,
    text_unit_ids: [`t${i % 7}`],
  }))
}

/** Every parent one level up exists and lists the child; children lists hold exactly the rows naming the parent. */
function expectValidHierarchy(rows: ReadonlyArray<CommunityRow>): void {
  const byNumber = new Map(rows.map((r) => [r.community, r]))
  expect(byNumber.size).toBe(rows.length)
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length)
  for (const r of rows) {
    expect(r.human_readable_id).toBe(r.community)
    expect(r.title).toBe(`Community ${r.community}`)
    if (r.level === 0) expect(r.parent).toBe(-1)
    else {
      const parent = byNumber.get(r.parent)
      expect(parent?.level, `parent of ${r.community}`).toBe(r.level - 1)
      expect(parent?.children).toContain(r.community)
      for (const id of r.entity_ids ?? []) expect(parent?.entity_ids).toContain(id)
    }
    const named = rows.filter((c) => c.parent === r.community).map((c) => c.community)
    expect([...r.children].sort((a, b) => a - b)).toEqual(named.sort((a, b) => a - b))
  }
}

const cluster = (level: number, number: number, parent: number, nodes: string[]): Cluster => ({
  level,
  cluster: number,
  parent,
  nodes,
})

describe('community numbers across an update', () => {
  // Groups ABCD and EFGHIJ, EFGHIJ split into EFG and HIJ; every group is a chain of relationships.
  const chain = (titles: string[]): WeightedEdge[] => titles.slice(1).map((t, i) => [titles[i]!, t, 1])
  const edges = [...chain([...'ABCD']), ...chain([...'EFGHIJ']), ...chain([...'JKL'])]
  const relationships = relationshipsOf(edges)
  const entities = entitiesOf(edges.flatMap(([s, t]) => [s, t]))
  const before = buildCommunityRows(
    [
      cluster(0, 0, -1, [...'ABCD']),
      cluster(0, 1, -1, [...'EFGHIJ']),
      cluster(1, 2, 1, [...'EFG']),
      cluster(1, 3, 1, [...'HIJ']),
    ],
    entities,
    relationships,
    PERIOD,
    undefined,
  )

  it('keeps number, id and title of every community whose members did not change; the others take the lowest free numbers', () => {
    // The new clustering numbers the same groups differently, moves D out to a new group DKL (D-K is
    // not a relationship, K-L is) and lists a kept group's members in another order.
    const after = buildCommunityRows(
      [
        cluster(0, 0, -1, [...'JIHGFE']),
        cluster(0, 1, -1, [...'ABC']),
        cluster(0, 2, -1, [...'DKL']),
        cluster(1, 3, 0, [...'HIJ']),
        cluster(1, 4, 0, [...'EFG']),
      ],
      entities,
      relationships,
      PERIOD,
      previousCommunities(before, entities),
    )
    const old = new Map(before.map((r) => [r.community, r]))
    const summary = after.map((r) => [r.level, r.community, r.parent, r.entity_ids?.length])
    expect(summary).toEqual([
      [0, 0, -1, 3],
      [0, 1, -1, 6],
      [0, 4, -1, 3],
      [1, 2, 1, 3],
      [1, 3, 1, 3],
    ])
    for (const kept of [1, 2, 3]) {
      const row = after.find((r) => r.community === kept)
      expect(row).toEqual({ ...old.get(kept), period: PERIOD })
    }
    expect(after.find((r) => r.community === 0)?.entity_ids).toEqual([...'ABC'].map(entityId))
    expectValidHierarchy(after)
  })

  it('with the same clustering as before, gives back the same rows', () => {
    const again = buildCommunityRows(
      [
        cluster(0, 0, -1, [...'ABCD']),
        cluster(0, 1, -1, [...'EFGHIJ']),
        cluster(1, 2, 1, [...'EFG']),
        cluster(1, 3, 1, [...'HIJ']),
      ],
      entities,
      relationships,
      PERIOD,
      previousCommunities(before, entities),
    )
    expect(again).toEqual(before)
  })

  it('a grown community takes a free number (not its id) and its unchanged sub-communities keep theirs', () => {
    const grown = buildCommunityRows(
      [
        cluster(0, 0, -1, [...'EFGHIJKL']),
        cluster(0, 1, -1, [...'ABCD']),
        cluster(1, 2, 0, [...'KL']),
        cluster(1, 3, 0, [...'HIJ']),
        cluster(1, 4, 0, [...'EFG']),
      ],
      entities,
      relationships,
      PERIOD,
      previousCommunities(before, entities),
    )
    expect(grown.map((r) => [r.level, r.community, r.parent, r.children])).toEqual([
      [0, 0, -1, []],
      [0, 1, -1, [2, 3, 4]],
      [1, 2, 1, []],
      [1, 3, 1, []],
      [1, 4, 1, []],
    ])
    // Number 1 is free (EFGHIJ is gone), so the grown community takes it, under a new id.
    const old = new Map(before.map((r) => [r.community, r]))
    expect(grown[1]?.id).not.toBe(old.get(1)?.id)
    expect(grown[0]?.id).toBe(old.get(0)?.id)
    expect(grown.find((r) => r.community === 4)?.entity_ids).toEqual([...'KL'].map(entityId))
    expectValidHierarchy(grown)
  })
})

describe('create_communities started from the previous communities', () => {
  it('keeps the communities away from a small change, with their numbers, and records the seeding', () => {
    // Upper-case titles: the largest-component step normalises names to upper case, as GraphRAG does.
    const edges = plantedPartition(500, 8, { block: 25, mixing: 0.2, edgesPerNode: 3 }).map(
      ([s, t, w]) => [s.toUpperCase(), t.toUpperCase(), w] as const,
    )
    const entities = entitiesOf(edges.flatMap(([s, t]) => [s, t, 'X0', 'X1']))
    const full = createCommunities(entities, relationshipsOf(edges), QUALITY, PERIOD, undefined)
    expect(full.continuity).toBeUndefined()
    const changed: WeightedEdge[] = [...edges, ['X0', 'V5', 5], ['X1', 'X0', 5], ['X1', 'V6', 5]]
    const update = createCommunities(
      entities,
      relationshipsOf(changed),
      QUALITY,
      PERIOD,
      previousCommunities(full.rows, entities, { previous: relationshipsOf(edges), current: relationshipsOf(changed) }),
    )
    expect(update.continuity?.clustering).toBe('kept')
    const touched = new Set(['X0', 'X1', 'V5', 'V6'].map(entityId))
    // Those are the entities whose pairs changed; the untouched level-0 communities are to be kept.
    const previous = previousCommunities(full.rows, entities, {
      previous: relationshipsOf(edges),
      current: relationshipsOf(changed),
    })
    expect(previous.keepTogether.flat()).not.toContain('V5')
    expect(previous.keepTogether.length).toBeGreaterThan(10)
    const untouched = full.rows.filter((r) => r.level === 0 && !(r.entity_ids ?? []).some((id) => touched.has(id)))
    expect(untouched.length).toBeGreaterThan(10)
    const now = new Map(update.rows.map((r) => [r.id, r]))
    for (const r of untouched) expect(now.get(r.id)?.community, `community ${r.community}`).toBe(r.community)
    expect(update.continuity?.kept).toBeGreaterThanOrEqual(untouched.length)
    expectValidHierarchy(update.rows)
    // A from-scratch clustering of the changed graph keeps far fewer of those ids.
    const scratch = new Set(
      createCommunities(entities, relationshipsOf(changed), QUALITY, PERIOD, undefined).rows.map((r) => r.id),
    )
    expect(untouched.filter((r) => scratch.has(r.id)).length).toBeLessThan(untouched.length / 2)
  })
})

describeShared('the 1 % modularity guard', () => {
  it('replaces a seeded clustering stuck in a poor local optimum by the one from scratch', () => {
    const karate: WeightedEdge[] = readFileSync(sharedPath('leiden', 'karate_unweighted_edges.tsv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const [s, t, w] = l.split('\t')
        return [s!, t!, Number(w)] as const
      })
    // One run from seed 7678 ends at Q 0.3918; compat mode's single iteration from there reaches
    // only 0.4087, more than 1 % below the 0.4188 it finds from scratch.
    const poor = levelAssignment(hierarchicalLeiden(karate, { seed: 7678, restarts: 1, maxClusterSize: 100 }), 0)
    const relationships = karate.map(([source, target, weight]) => ({ source, target, weight }))
    const compat: ClusterGraphOptions = { ...QUALITY, mode: 'compat', max_iterations: 1 }
    const guarded = clusterGraph(relationships, compat, { startingCommunities: [poor] })
    // The poor partition kept as it is falls short too: the guard passes over it, then over the seeded run.
    expect(guarded.seeding?.modularity.kept).toBeLessThan(0.99 * guarded.seeding!.scratchModularity)
    expect(guarded.seeding?.clustering).toBe('from_scratch')
    expect(guarded.seeding?.modularity.seeded).toBeLessThan(0.99 * guarded.seeding!.scratchModularity)
    expect(guarded.clusters).toEqual(clusterGraph(relationships, compat, undefined).clusters)
    // Quality mode gets out of it from the same start: Leiden over the communities the change reached
    // (with no untouched group given, all of them) started from the projection is within 1 %.
    const quality = clusterGraph(relationships, QUALITY, { startingCommunities: [poor] })
    expect(quality.seeding?.clustering).toBe('local')
    expect(quality.seeding?.modularity.local).toBeGreaterThanOrEqual(0.99 * quality.seeding!.scratchModularity)
  })
})

describe('previousCommunities: which level-0 communities the change did not reach', () => {
  it('reads pairs as clustering does: unordered, the last row of a pair wins, weights ≤ 0 left out', () => {
    const entities = entitiesOf(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])
    const community = (n: number, titles: string[]) => ({
      community: n,
      level: 0,
      entity_ids: titles.map((t) => entityId(t)),
    })
    const before = [
      community(0, ['A', 'B']),
      community(1, ['C', 'D']),
      community(2, ['E', 'F']),
      community(3, ['G', 'H']),
    ]
    const edge = (source: string, target: string, weight: number) => ({ source, target, weight })
    const previous = previousCommunities(before, entities, {
      previous: [edge('A', 'B', 1), edge('C', 'D', 5), edge('C', 'D', 2), edge('E', 'F', 0), edge('G', 'H', 1)],
      // A–B turned round, C–D's last row unchanged, E–F still without affinity, G–H re-weighted.
      current: [edge('B', 'A', 1), edge('D', 'C', 2), edge('E', 'F', -1), edge('G', 'H', 3)],
    })
    expect(previous.keepTogether).toEqual([
      ['A', 'B'],
      ['C', 'D'],
      ['E', 'F'],
    ])
  })
})
