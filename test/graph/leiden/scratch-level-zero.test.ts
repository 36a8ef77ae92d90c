// scratchLevelZeroModularity: the level-0 modularity of a hierarchical run from scratch without its
// splits (an update judges its candidates against it). It must be that run's figure to the last bit,
// in both modes, at other seeds and resolutions, on graphs whose large clusters are split.
import { describe, expect, it } from 'vitest'
import {
  buildNetwork,
  hierarchicalLeidenNetwork,
  labeledModularity,
  type LeidenOptions,
  scratchLevelZeroModularity,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { plantedPartition, ringOfCliques } from './graphs.js'

/** What cluster-graph.ts computed before: the full hierarchy, then level 0's modularity over labels. */
function hierarchicalLevelZero(edges: ReadonlyArray<WeightedEdge>, options: LeidenOptions): number {
  const network = buildNetwork(edges)
  const level0 = new Map<string, number>()
  for (const e of hierarchicalLeidenNetwork(network, options)) if (e.level === 0) level0.set(e.node, e.cluster)
  return labeledModularity(network, level0, options.resolution)
}

describe('scratchLevelZeroModularity', () => {
  const graphs: [string, WeightedEdge[]][] = [
    ['planted 2,000', plantedPartition(2000, 7, { block: 60, mixing: 0.25 })],
    ['planted 600, dense mixing', plantedPartition(600, 11, { block: 30, mixing: 0.45, edgesPerNode: 6 })],
    ['ring of cliques', ringOfCliques(12, 6)],
  ]
  const settings: LeidenOptions[] = [
    { maxClusterSize: 10 },
    { maxClusterSize: 10, mode: 'compat', maxIterations: 1 },
    { maxClusterSize: 25, seed: 42, resolution: 0.7 },
    { maxClusterSize: 5, seed: 3, resolution: 1.6, mode: 'quality', maxIterations: 4 },
  ]
  for (const [name, edges] of graphs) {
    it(`equals the hierarchical run's level 0 bit for bit: ${name}`, () => {
      const network = buildNetwork(edges)
      for (const options of settings) {
        const expected = hierarchicalLevelZero(edges, options)
        expect(Object.is(scratchLevelZeroModularity(network, options), expected), JSON.stringify(options)).toBe(true)
      }
    })
  }

  it('ignores a start, groups to keep and a projection (the run is from singletons)', () => {
    const edges = plantedPartition(800, 5, { block: 40 })
    const network = buildNetwork(edges)
    const allOne = new Map(network.labels.map((label) => [label, 0]))
    const seeded: LeidenOptions = {
      maxClusterSize: 10,
      startingCommunities: [allOne],
      keepTogether: [network.labels.slice(0, 30)],
      projection: { target: 0.5 },
    }
    expect(scratchLevelZeroModularity(network, seeded)).toBe(hierarchicalLevelZero(edges, { maxClusterSize: 10 }))
  })
})
