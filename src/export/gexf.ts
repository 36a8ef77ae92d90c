/** GEXF 1.3 (Gephi's own format) through graphology-gexf's writer, with positions, sizes and colours as viz data. */
import gexf from 'graphology-gexf'
import type { ExportGraph } from './build-graph.js'
import { xmlText } from './xml-text.js'

const VIZ = new Set(['label', 'x', 'y', 'size', 'color'])

export function writeGexf(graph: ExportGraph): string {
  // graphology-gexf writes every graph attribute as a <meta> child, which GEXF's schema does not allow for ours.
  const copy = graph.copy()
  copy.removeAttribute('level')
  copy.removeAttribute('levels')
  // 1.3: graphology's 1.2 header misspells the viz namespace (three slashes), which hides positions and colours from readers.
  return gexf.write(copy, {
    version: '1.3',
    formatNode: (_key, attributes) => ({
      label: xmlText(attributes.label),
      attributes: textSafe(Object.fromEntries(Object.entries(attributes).filter(([name]) => !VIZ.has(name)))),
      viz: { x: attributes.x, y: attributes.y, size: attributes.size, color: rgb(attributes.color) },
    }),
    formatEdge: (_key, attributes) => ({
      weight: attributes.weight,
      attributes: textSafe({
        description: attributes.description,
        combined_degree: attributes.combined_degree,
        human_readable_id: attributes.human_readable_id,
      }),
    }),
  })
}

function textSafe(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, typeof value === 'string' ? xmlText(value) : value]),
  )
}

/** `rgb(r,g,b)`, which the writer emits as r/g/b attributes: networkx reads those, not GEXF 1.3's `hex`. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16)
  return `rgb(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255})`
}
