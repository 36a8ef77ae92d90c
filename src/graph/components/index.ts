/** Connected components and GraphRAG's stable largest connected component. */
export { connectedComponents, largestConnectedComponent, stableLargestConnectedComponent, type NamedEdge } from './stable-lcc.js'
