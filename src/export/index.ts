/**
 * `graphrag export`: reads the index tables, builds the graph (entities, relationships, community
 * per level, reports), lays it out once, and writes GraphML, GEXF, JSON, CSV or a self-contained HTML page.
 */
import { basename, join, resolve } from 'node:path'
import { readableIndexDir } from '../storage/generations.js'
import { loadConfig } from '../config/index.js'
import { ExportError } from '../errors.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import { remoteAt } from '../storage/object/remote.js'
import { buildGraph } from './build-graph.js'
import { buildMembership, chooseLevel, type Membership } from './communities.js'
import { writeEdgesCsv, writeNodesCsv } from './csv.js'
import { writeGexf } from './gexf.js'
import { writeGraphml } from './graphml.js'
import { viewerData, writeHtml } from './html.js'
import { writeJson } from './json.js'
import { assignLayout } from './layout.js'
import { loadExportTables } from './tables.js'
import type { ExportGraph } from './build-graph.js'
import type { ViewerData } from './viewer-data.js'

const EXPORT_FORMATS = ['graphml', 'gexf', 'json', 'csv', 'html'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ExportOptions {
  format: ExportFormat
  /** Project root, for settings.yaml (output_storage.base_dir); default '.'. */
  root?: string
  configFile?: string
  /** Folder with the index tables; when given, no settings file is needed. */
  dataDir?: string
  /** Community level nodes are coloured by (default: 0, the top level). */
  level?: number
  /**
   * The file to write (for csv: the folder for nodes.csv and edges.csv); default `<data>/export/`
   * (`<root>/export/` for an index in object storage). '-' writes to `stdout`.
   */
  out?: string
  stdout?: { write(text: string): unknown }
}

export interface ExportResult {
  format: ExportFormat
  /** Files written (empty when written to stdout). */
  files: string[]
  nodes: number
  edges: number
  level: number
  warnings: string[]
}

export async function runExport(options: ExportOptions): Promise<ExportResult> {
  const dataDir = resolve(
    options.dataDir ??
      loadConfig({ root: options.root ?? '.', configFile: options.configFile }).settings.output_storage.base_dir,
  )
  // The published index (a local copy of it when it lives in object storage), unless --data names a folder.
  const tables = await loadExportTables(options.dataDir === undefined ? await readableIndexDir(dataDir) : dataDir)
  const membership = buildMembership(tables.communities, tables.reports)
  const level = chooseLevel(membership, options.level)
  const { graph, warnings } = buildGraph(tables.entities, tables.relationships, membership, level)
  assignLayout(graph)
  const outputs = await render(graph, membership, options.format, titleOf(options, dataDir))
  const files = await writeOutputs(outputs, options, defaultExportDir(options, dataDir))
  return { format: options.format, files, nodes: graph.order, edges: graph.size, level, warnings }
}

/** The graph page's data for the index in `dataDir`, coloured by `level` (default 0): the web UI's graph tab draws it. */
export async function liveViewerData(dataDir: string, title: string, level?: number): Promise<ViewerData> {
  const tables = await loadExportTables(dataDir)
  const membership = buildMembership(tables.communities, tables.reports)
  const { graph } = buildGraph(tables.entities, tables.relationships, membership, chooseLevel(membership, level))
  assignLayout(graph)
  return viewerData(graph, membership, title)
}

/** File name → content; one file for every format but csv. */
async function render(
  graph: ExportGraph,
  membership: Membership,
  format: ExportFormat,
  title: string,
): Promise<Map<string, string>> {
  switch (format) {
    case 'graphml':
      return new Map([['graph.graphml', writeGraphml(graph)]])
    case 'gexf':
      return new Map([['graph.gexf', writeGexf(graph)]])
    case 'json':
      return new Map([['graph.json', writeJson(graph, membership)]])
    case 'csv':
      return new Map([
        ['nodes.csv', writeNodesCsv(graph)],
        ['edges.csv', writeEdgesCsv(graph)],
      ])
    case 'html':
      return new Map([['graph.html', await writeHtml(graph, membership, title)]])
  }
}

/**
 * Where an export goes without --out: `<output>/export/`, or `<root>/export/` for an index in object
 * storage, whose output folder is a local copy of the published generation, replaced when another
 * generation is published.
 */
function defaultExportDir(options: ExportOptions, dataDir: string): string {
  return remoteAt(dataDir) === undefined ? join(dataDir, 'export') : join(resolve(options.root ?? '.'), 'export')
}

async function writeOutputs(
  outputs: Map<string, string>,
  options: ExportOptions,
  defaultDir: string,
): Promise<string[]> {
  if (options.out === '-') {
    if (outputs.size > 1)
      throw new ExportError(
        `--out -: the ${options.format} export is ${outputs.size} files (${[...outputs.keys()].join(', ')}); give a folder`,
      )
    options.stdout?.write([...outputs.values()][0]!)
    return []
  }
  const paths = [...outputs.entries()].map(([name, text]): [string, string] => {
    if (options.out === undefined) return [join(defaultDir, name), text]
    return [outputs.size > 1 ? join(resolve(options.out), name) : resolve(options.out), text]
  })
  for (const [path, text] of paths) {
    try {
      await writeFileAtomic(path, text)
    } catch (cause) {
      throw new ExportError(`cannot write ${path}`, { cause })
    }
  }
  return paths.map(([path]) => path)
}

/** The page title names the project, so two exports open side by side are told apart. */
function titleOf(options: ExportOptions, dataDir: string): string {
  const project = options.dataDir === undefined ? basename(resolve(options.root ?? '.')) : basename(dataDir)
  return `${project}: graphrag knowledge graph`
}
