/**
 * Pins what the format tests checked only loosely: every exported edge keeps its relationship's id,
 * source and target in that order (CSV and GraphML), checked without Python's networkx.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { MultiGraph } from 'graphology'
import { parse as parseGraphml } from 'graphology-graphml'
import { beforeAll, describe, expect, it } from 'vitest'
import { runExport } from '../../src/export/index.js'
import { parseCsv } from '../../src/index/input/csv.js'
import { handMadeIndex, RELATIONSHIP_ROWS } from './fixture.js'

const EXPECTED = RELATIONSHIP_ROWS.map((r) => [r.id, r.source, r.target, r.description])

let data: string
beforeAll(async () => {
  data = await handMadeIndex()
})

async function exportedFiles(format: 'csv' | 'graphml'): Promise<string[]> {
  const result = await runExport({ format, dataDir: data, out: join(data, 'out', `edges-${format}`) })
  return Promise.all(result.files.map((f) => readFile(f, 'utf8')))
}

describe('exported edges keep their relationship: id, source, target, in that order', () => {
  it('edges.csv', async () => {
    const [, edgesCsv] = await exportedFiles('csv')
    const [header, ...rows] = parseCsv(edgesCsv!)
    const at = (name: string) => header!.indexOf(name)
    expect(rows.map((r) => [r[at('id')], r[at('source')], r[at('target')], r[at('description')]])).toEqual(EXPECTED)
  })

  it('GraphML, as its XML says and as graphology-graphml reads it back', async () => {
    const [text] = await exportedFiles('graphml')
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text!)
    const edges = [xml.graphml.graph.edge].flat() as Array<{ id: string; source: string; target: string }>
    expect(edges.map((e) => [e.id, e.source, e.target])).toEqual(EXPECTED.map((e) => e.slice(0, 3)))
    const graph = parseGraphml(MultiGraph, text!)
    expect(
      RELATIONSHIP_ROWS.map((r) => [
        r.id,
        graph.source(r.id),
        graph.target(r.id),
        graph.getEdgeAttribute(r.id, 'description'),
      ]),
    ).toEqual(EXPECTED)
  })
})
