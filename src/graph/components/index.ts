/** Connected components and GraphRAG's stable largest connected component. */
export { compareCodePoints, htmlUnescape, normalizeNodeName, pythonStrip } from './names.js'
export { connectedComponents, largestConnectedComponent, stableLargestConnectedComponent, type NamedEdge } from './stable-lcc.js'
