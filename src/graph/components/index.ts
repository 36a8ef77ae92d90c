/** Connected components and GraphRAG's stable largest connected component. */
export { connectedComponents, largestConnectedComponent, stableLargestConnectedComponent } from './stable-lcc.js'
