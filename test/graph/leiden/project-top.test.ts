// Level 0 of a projection and what it leaves to the levels below (projectTop, project.ts): the moves
// towards the target (project-moves.ts) go as far as a bounded number of changes, a node moved alone
// loses its previous sub-communities, a previous sub-community moved as a block keeps them.
import { describe, expect, it } from 'vitest'
import {
  buildNetwork,
  hierarchicalLeiden,
  leidenNetwork,
  networkModularity,
  type CsrNetwork,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { projectTop } from '../../../src/graph/leiden/project.js'
import { InternalError } from '../../../src/errors.js'
import { levelPartition, ringWithStray } from './graphs.js'

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const cluster = (sub: CsrNetwork) => leidenNetwork(sub)

/**
 * A ring of five K5s whose previous clustering glued clique 1 to clique 0 and put k4_2 with clique 3
 * (the edge k3_3–k4_2 that tied it there was heavier then). Level 1 had each clique as a
 * sub-community, k4_2 with clique 3's; clique 1's label is 0 there.
 */
function ring() {
  const { edges, cliques } = ringWithStray()
  const { network, labels } = buildNetwork(edges)
  const cliqueOf = (v: string) => Number(v.slice(1, v.indexOf('_')))
  const level0 = Int32Array.from(labels, (v) => (v === 'k4_2' ? 3 : cliqueOf(v) === 1 ? 0 : cliqueOf(v)))
  const level1 = Int32Array.from(labels, (v) => (v === 'k4_2' ? 3 : [1, 0, 2, 3, 4][cliqueOf(v)]!))
  const groups = (membership: Int32Array) => {
    const out = new Map<number, string[]>()
    labels.forEach((v, i) => out.set(membership[i]!, [...(out.get(membership[i]!) ?? []), v]))
    return [...out.values()].map((g) => g.sort().join(',')).sort()
  }
  return { network, labels, cliques, level0, level1, groups }
}

describe('projectTop', () => {
  it('refuses to project without a level-0 start', () => {
    const { network } = ring()
    expect(() => projectTop(network, [], 1, 0.5, cluster)).toThrow(InternalError)
    expect(() => projectTop(network, [undefined], 1, 0.5, cluster)).toThrow('projection without a level-0 start')
  })

  it('drops the sub-communities of a node moved alone, keeps those of a block moved whole', () => {
    const { network, labels, cliques, level0, level1, groups } = ring()
    const { top, starts } = projectTop(network, [level0, level1, undefined], 1, 0.65, cluster)
    // Both changes were needed: k4_2 went home alone, clique 1 left clique 0 as a block.
    expect(groups(top.membership)).toEqual(cliques.map((c) => [...c].sort().join(',')).sort())
    expect(starts[0]).toBe(level0)
    expect(starts[2]).toBeUndefined()
    const expected = Int32Array.from(level1)
    expected[labels.indexOf('k4_2')] = -1
    expect(starts[1]).toEqual(expected)
    // The caller's labels are left as they were.
    expect(level1[labels.indexOf('k4_2')]).toBe(3)
  })

  it('changes nothing, and keeps every sub-community, when the target is out of reach or already met', () => {
    const { network, level0, level1, groups } = ring()
    const q0 = networkModularity(network, level0)
    for (const target of [0.9, q0, Number.NEGATIVE_INFINITY]) {
      const { top, starts } = projectTop(network, [level0, level1], 1, target, cluster)
      expect(groups(top.membership)).toEqual(groups(level0))
      expect(starts[1]).toEqual(level1)
    }
  })

  it('moves a previous sub-community only as a whole: without it, clique 1 stays glued', () => {
    const { network, labels, level0, level1, groups } = ring()
    const without = projectTop(network, [level0], 1, 0.65, cluster)
    const glued = groups(without.top.membership).find((g) => g.includes('k1_0'))!
    expect(glued.split(',').sort()).toEqual([...names('k0_', 5), ...names('k1_', 5)].sort())
    // A sub-community the network no longer holds together is not a block: clique 1's label 0
    // given also to k3_0, far away, leaves the block {clique 1} as it was.
    const spread = Int32Array.from(level1)
    spread[labels.indexOf('k3_0')] = 0
    const apart = projectTop(network, [level0, spread], 1, 0.65, cluster)
    expect(groups(apart.top.membership)).toContain(names('k1_', 5).join(','))
  })

  it('makes at most 256 changes', () => {
    // 300 separate pairs, every node previously alone: each pair joined is one change, and the
    // target (all pairs joined) needs 300 of them.
    const edges: WeightedEdge[] = Array.from({ length: 300 }, (_, i) => [`a${i}`, `b${i}`, 1] as WeightedEdge)
    const alone = new Map(edges.flatMap(([a, b], i) => [[a, 2 * i] as const, [b, 2 * i + 1] as const]))
    const entries = hierarchicalLeiden(edges, {
      maxClusterSize: 1000,
      startingCommunities: [alone],
      projection: { target: 0.99 },
    })
    expect(levelPartition(entries, 0)).toHaveLength(600 - 256)
    // With fewer pairs than that, all are joined.
    const few = edges.slice(0, 20)
    const joined = hierarchicalLeiden(few, {
      maxClusterSize: 1000,
      startingCommunities: [new Map([...alone].filter(([v]) => Number(v.slice(1)) < 20))],
      projection: { target: 0.94 },
    })
    expect(levelPartition(joined, 0)).toHaveLength(20)
  })

  it('takes blocks from the deepest level where a node has a label, label 0 included', () => {
    // Only clique 1 had a sub-community (label 0 at level 1); nobody has one at level 2. Moved out
    // as that block, clique 1 leaves clique 0: its only way out (no single node gains by leaving).
    const { network, labels, level0, groups } = ring()
    const level1 = Int32Array.from(labels, (v) => (v.startsWith('k1_') ? 0 : -1))
    const level2 = new Int32Array(labels.length).fill(-1)
    const { top, starts } = projectTop(network, [level0, level1, level2], 1, 0.65, cluster)
    expect(groups(top.membership)).toContain(names('k1_', 5).join(','))
    expect(starts[1]).toEqual(level1)
  })
})
