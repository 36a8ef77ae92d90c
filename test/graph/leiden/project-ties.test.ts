// Pins the projection's placement rule on ties (project.ts): a new node whose gain is the same in two
// communities joins the first candidate met, so the result does not depend on float noise or on
// which community came last.
import { describe, expect, it } from 'vitest'
import { buildNetwork, hierarchicalLeiden, type WeightedEdge } from '../../../src/graph/leiden/index.js'
import { projectMembership } from '../../../src/graph/leiden/project.js'

describe('projection of a previous clustering: ties', () => {
  it('puts a new node tied equally to two communities into the first one it meets', () => {
    // a0-a1 and b0-b1 are the previous communities; x is new, tied to a0 and b0 by equal weights.
    const { network, labels } = buildNetwork([
      ['a0', 'a1', 1],
      ['b0', 'b1', 1],
      ['x', 'a0', 1],
      ['x', 'b0', 1],
    ])
    expect(labels).toEqual(['a0', 'a1', 'b0', 'b1', 'x'])
    const { membership } = projectMembership(network, Int32Array.from([0, 0, 1, 1, -1]), 1)
    const of = (name: string) => membership[labels.indexOf(name)]
    expect(of('a0')).toBe(of('a1'))
    expect(of('b0')).toBe(of('b1'))
    expect(of('a0')).not.toBe(of('b0'))
    expect(of('x')).toBe(of('a0'))
  })

  it('keeps a new node alone when joining gains nothing (a gain of exactly zero is not positive)', () => {
    const { network, labels } = buildNetwork([
      ['a0', 'a1', 1],
      ['x', 'a0', 1],
    ])
    // 2m = 4, r = 1/4; degree(x) = 1, total(a) = 3: gain = 1 − (1/4)·1·3 = 0.25 > 0, so it joins.
    const joined = projectMembership(network, Int32Array.from([0, 0, -1]), 1).membership
    expect(joined[labels.indexOf('x')]).toBe(joined[labels.indexOf('a0')])
    // Resolution 4/3: gain = 1 − (1/3)·1·3 = 0 exactly: not positive, x stays alone.
    const alone = projectMembership(network, Int32Array.from([0, 0, -1]), 4 / 3).membership
    expect(alone[labels.indexOf('x')]).not.toBe(alone[labels.indexOf('a0')])
  })

  it('leaves each new node that gains nothing by joining in a community of its own, never one shared', () => {
    // x and y hang on a from either end; at resolution 4 joining a loses (1 − (4/6)·1·4 < 0).
    const { network, labels } = buildNetwork([
      ['a0', 'a1', 1],
      ['x', 'a0', 1],
      ['y', 'a1', 1],
    ])
    const { membership, count } = projectMembership(network, Int32Array.from([0, 0, -1, -1]), 4)
    const of = (name: string) => membership[labels.indexOf(name)]
    expect(labels).toEqual(['a0', 'a1', 'x', 'y'])
    expect(count).toBe(3)
    expect(of('x')).not.toBe(of('y'))
    expect(of('x')).not.toBe(of('a0'))
  })

  it("counts a placed node in its community's weight for the nodes placed after it", () => {
    // x and y hang on a0 alone. 2m = 6, resolution 1.32 (r = 0.22): x joins a (1 − 0.22·1·4 > 0);
    // a then weighs 5, and y does not (1 − 0.22·1·5 < 0).
    const { network, labels } = buildNetwork([
      ['a0', 'a1', 1],
      ['x', 'a0', 1],
      ['y', 'a0', 1],
    ])
    const { membership } = projectMembership(network, Int32Array.from([0, 0, -1, -1]), 1.32)
    const of = (name: string) => membership[labels.indexOf(name)]
    expect(of('x')).toBe(of('a0'))
    expect(of('y')).not.toBe(of('a0'))
  })

  it('places new nodes tied to each other as one group, not pulled one by one into an old community', () => {
    // Old community a = K5. A new triangle n0–n1–n2 with n0 tied to a0 by weight 5. One by one, n0
    // would join a (gain 5 − 7·25/36 > 0) and leave n1, n2 behind; as a group (degree 11) joining a
    // gains 5 − 11·25/36 < 0, so the triangle stays together as a community of its own.
    const a = ['a0', 'a1', 'a2', 'a3', 'a4']
    const edges: WeightedEdge[] = []
    for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) edges.push([a[i]!, a[j]!, 1])
    edges.push(['n0', 'n1', 1], ['n1', 'n2', 1], ['n0', 'n2', 1], ['n0', 'a0', 5])
    const entries = hierarchicalLeiden(edges, {
      maxClusterSize: 100,
      startingCommunities: [new Map(a.map((m) => [m, 0]))],
      projection: {},
    })
    const top = new Map(entries.filter((e) => e.level === 0).map((e) => [e.node, e.cluster]))
    expect(new Set(a.map((m) => top.get(m))).size).toBe(1)
    expect(top.get('n0')).toBe(top.get('n1'))
    expect(top.get('n1')).toBe(top.get('n2'))
    expect(top.get('n0')).not.toBe(top.get('a0'))
  })
})
