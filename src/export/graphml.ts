/**
 * GraphML (graphml.graphdrawing.org) for Gephi, Cytoscape, yEd and networkx. graphology-graphml only
 * parses (its writer is unreleased), so the document is built as data and serialised by
 * fast-xml-parser's XMLBuilder, which does the escaping; keys carry declared types, not guessed ones.
 */
import { XMLBuilder } from 'fast-xml-parser'
import type { ExportGraph } from './build-graph.js'
import { xmlText } from './xml-text.js'

type GraphmlType = 'string' | 'long' | 'double'
interface KeySpec {
  id: string
  for: 'node' | 'edge' | 'graph'
  name: string
  type: GraphmlType
}

const NODE_KEYS: readonly [string, GraphmlType][] = [
  ['label', 'string'],
  ['entity_id', 'string'],
  ['human_readable_id', 'long'],
  ['type', 'string'],
  ['description', 'string'],
  ['degree', 'long'],
  ['frequency', 'long'],
  ['community', 'long'],
  ['report_title', 'string'],
  ['report_summary', 'string'],
  ['x', 'double'],
  ['y', 'double'],
  ['size', 'double'],
  ['color', 'string'],
]
const EDGE_KEYS: readonly [string, GraphmlType][] = [
  ['description', 'string'],
  ['weight', 'double'],
  ['combined_degree', 'long'],
  ['human_readable_id', 'long'],
]

export function writeGraphml(graph: ExportGraph): string {
  const levels = graph.getAttribute('levels')
  const keys = declareKeys(
    [...NODE_KEYS, ...levels.map((l): [string, GraphmlType] => [`community_${l}`, 'long'])],
    EDGE_KEYS,
  )
  const nodeKeys = keys.filter((k) => k.for === 'node')
  const edgeKeys = keys.filter((k) => k.for === 'edge')
  const nodes = graph.mapNodes((node, attributes) => ({
    '@_id': xmlText(node),
    data: dataOf(nodeKeys, attributes as unknown as Record<string, unknown>),
  }))
  const edges = graph.mapEdges((edge, attributes, source, target) => ({
    '@_id': xmlText(edge),
    '@_source': xmlText(source),
    '@_target': xmlText(target),
    data: dataOf(edgeKeys, attributes as unknown as Record<string, unknown>),
  }))
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    graphml: {
      '@_xmlns': 'http://graphml.graphdrawing.org/xmlns',
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      '@_xsi:schemaLocation':
        'http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd',
      key: keys.map((k) => ({ '@_id': k.id, '@_for': k.for, '@_attr.name': k.name, '@_attr.type': k.type })),
      graph: {
        '@_id': 'G',
        '@_edgedefault': 'undirected',
        data: [{ '@_key': 'g0', '#text': String(graph.getAttribute('level')) }],
        node: nodes,
        edge: edges,
      },
    },
  }
  return new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
  }).build(document)
}

function declareKeys(node: readonly [string, GraphmlType][], edge: readonly [string, GraphmlType][]): KeySpec[] {
  return [
    { id: 'g0', for: 'graph', name: 'level', type: 'long' },
    ...node.map(([name, type], i): KeySpec => ({ id: `n${i}`, for: 'node', name, type })),
    ...edge.map(([name, type], i): KeySpec => ({ id: `e${i}`, for: 'edge', name, type })),
  ]
}

function dataOf(keys: readonly KeySpec[], attributes: Record<string, unknown>): { '@_key': string; '#text': string }[] {
  return keys.map((k) => ({ '@_key': k.id, '#text': xmlText(String(attributes[k.name])) }))
}
