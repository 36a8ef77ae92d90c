import { execFileSync, spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MultiGraph } from 'graphology'
import { parse as parseGexf } from 'graphology-gexf'
import { parse as parseGraphml } from 'graphology-graphml'
import { beforeAll, describe, expect, it } from 'vitest'
import { ExportError } from '../../src/errors.js'
import { runExport, type ExportFormat } from '../../src/export/index.js'
import { parseCsv } from '../../src/index/input/csv.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { ENTITY_ROWS, handMadeIndex, NASTY, RELATIONSHIP_ROWS, REPORT_ROWS } from './fixture.js'

let data: string
beforeAll(async () => {
  data = await handMadeIndex()
})

async function exported(format: ExportFormat, level?: number): Promise<string> {
  const result = await runExport({
    format,
    dataDir: data,
    level,
    out: join(data, 'out', `${format}-${level ?? 'default'}`),
  })
  expect(result.files).toHaveLength(1)
  return readFile(result.files[0]!, 'utf8')
}

describe('export formats', () => {
  it('GraphML read back by graphology-graphml: every entity, relationship and attribute', async () => {
    const text = await exported('graphml', 1)
    const graph = parseGraphml(MultiGraph, text)
    expect(graph.order).toBe(ENTITY_ROWS.length)
    expect(graph.size).toBe(RELATIONSHIP_ROWS.length) // parallel A-B and B-A relationships both kept
    const ada = graph.getNodeAttributes('ADA LOVELACE')
    expect(ada).toMatchObject({
      label: 'ADA LOVELACE',
      type: 'PERSON',
      degree: 2,
      community: 2,
      community_0: 0,
      community_1: 2,
    })
    // The control character XML cannot carry becomes U+FFFD; everything else survives the round trip.
    expect(ada.description).toBe(NASTY.replace('\u0001', '\ufffd'))
    expect(ada.report_title).toBe('Programming the Engine')
    // Babbage's level-1 community has no report; London is not split at level 1, so it keeps its level-0 community.
    expect(graph.getNodeAttributes('CHARLES BABBAGE')).toMatchObject({ community: 3, report_title: '' })
    expect(graph.getNodeAttributes('LONDON')).toMatchObject({ community: 1, community_1: -1, report_title: 'London' })
    expect(graph.getNodeAttributes('HERMIT')).toMatchObject({ community: -1, community_0: -1, color: '#a0a0a0' })
    expect(graph.getEdgeAttributes('r4')).toMatchObject({ description: 'Lived in <London> & worked there.', weight: 1 })
    expect(graph.extremities('r2').sort()).toEqual(['ADA LOVELACE', 'ANALYTICAL ENGINE'])
    expect(typeof ada.x).toBe('number')
  })

  it('GraphML read by networkx, when Python has it', async (context) => {
    const probe = spawnSync('python3', ['-c', 'import networkx'], { encoding: 'utf8' })
    if (probe.status !== 0) {
      console.warn('NOTICE: python3 with networkx is absent; the networkx GraphML check is skipped.')
      context.skip()
    }
    const file = (await runExport({ format: 'graphml', dataDir: data, out: join(data, 'out', 'nx.graphml') })).files[0]!
    const script = [
      'import json, sys, networkx as nx',
      'g = nx.read_graphml(sys.argv[1])',
      'print(json.dumps({"nodes": g.number_of_nodes(), "edges": g.number_of_edges(), "ada": g.nodes["ADA LOVELACE"], "weight": g.edges["CHARLES BABBAGE", "ANALYTICAL ENGINE", "r1"]["weight"]}))',
    ].join('\n')
    const out = JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }))
    expect(out).toMatchObject({ nodes: 5, edges: 5, weight: 5 })
    expect(out.ada).toMatchObject({ type: 'PERSON', degree: 2, community: 0, report_title: 'The Engine & its makers' })
  })

  it('GEXF read back by graphology-gexf, with positions, sizes and colours', async () => {
    const graph = parseGexf(MultiGraph, await exported('gexf'))
    expect([graph.order, graph.size]).toEqual([5, 5])
    const babbage = graph.getNodeAttributes('CHARLES BABBAGE')
    expect(babbage).toMatchObject({
      label: 'CHARLES BABBAGE',
      community: 0,
      description: 'Designed the Analytical Engine.',
      color: 'rgb(78,121,167)',
    })
    expect(babbage.size).toBeGreaterThan(graph.getNodeAttribute('LONDON', 'size'))
    expect(graph.getEdgeAttribute('r1', 'weight')).toBe(5)
  })

  it("JSON is graphology's format, with the communities and their reports", async () => {
    const json = JSON.parse(await exported('json'))
    const graph = MultiGraph.from(json)
    expect([graph.order, graph.size]).toEqual([5, 5])
    const communities = json.attributes.communities as {
      community: number
      report: { title: string; findings: unknown[] } | null
    }[]
    expect(communities.map((c) => c.community)).toEqual([0, 1, 2, 3])
    expect(communities[0]!.report).toMatchObject({
      title: REPORT_ROWS[0]!.title,
      findings: [{ summary: 'a finding', explanation: 'why' }],
    })
    expect(communities[3]!.report).toBeNull()
  })

  it('CSV: nodes.csv and edges.csv parse back (RFC 4180) to the same values', async () => {
    const result = await runExport({ format: 'csv', dataDir: data, out: join(data, 'out', 'csv') })
    expect(result.files.map((f) => f.split('/').pop())).toEqual(['nodes.csv', 'edges.csv'])
    const [header, ...nodes] = parseCsv(await readFile(result.files[0]!, 'utf8'))
    expect(header).toEqual([
      'id',
      'entity_id',
      'human_readable_id',
      'type',
      'description',
      'degree',
      'frequency',
      'community',
      'community_0',
      'community_1',
      'report_title',
      'report_summary',
      'x',
      'y',
      'size',
      'color',
    ])
    expect(nodes).toHaveLength(5)
    const ada = Object.fromEntries(header!.map((h, i) => [h, nodes[0]![i]]))
    expect(ada).toMatchObject({
      id: 'ADA LOVELACE',
      description: NASTY,
      community: '0',
      community_1: '2',
      report_title: 'The Engine & its makers',
    })
    const [edgeHeader, ...edges] = parseCsv(await readFile(result.files[1]!, 'utf8'))
    expect(edgeHeader).toEqual([
      'id',
      'source',
      'target',
      'description',
      'weight',
      'combined_degree',
      'human_readable_id',
    ])
    expect(edges.map((e) => e[3])).toEqual(RELATIONSHIP_ROWS.map((r) => r.description))
  })

  it('is deterministic: the same index exports byte-identical files', async () => {
    for (const format of ['graphml', 'gexf', 'json', 'html'] as const) {
      expect(await exported(format, 1), format).toBe(await exported(format, 1))
    }
  })

  it('rejects a level the index does not have, and csv on stdout', async () => {
    await expect(runExport({ format: 'graphml', dataDir: data, level: 4 })).rejects.toThrow(/levels 0, 1/)
    await expect(runExport({ format: 'graphml', dataDir: data, level: 4 })).rejects.toBeInstanceOf(ExportError)
    await expect(runExport({ format: 'csv', dataDir: data, out: '-' })).rejects.toBeInstanceOf(ExportError)
  })
})

describeShared('export of an index built by Python GraphRAG', () => {
  it('reads its tables by column name and keeps every relationship whose endpoints are entities', async () => {
    const dir = sharedPath('reference', 'christmas-carol-index')
    const out = join(data, 'out', 'christmas.graphml')
    const result = await runExport({ format: 'graphml', dataDir: dir, level: 1, out })
    // That index holds 84 relationships whose source is not an entity (the reference's orphans); they are named in a warning.
    expect(result).toMatchObject({ nodes: 529, edges: 978 - 84, level: 1 })
    expect(result.warnings).toEqual([
      expect.stringMatching(/^84 relationship\(s\) left out because an endpoint is not in the entities table/),
    ])
    const graph = parseGraphml(MultiGraph, await readFile(out, 'utf8'))
    expect([graph.order, graph.size]).toEqual([529, 894])
    expect(graph.getNodeAttribute('PROJECT GUTENBERG', 'type')).toBe('ORGANIZATION')
  })
})
