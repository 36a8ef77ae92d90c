/** Connected components and GraphRAG's stable largest connected component. */
export { largestConnectedComponent, stableLargestConnectedComponent } from './stable-lcc.js'
