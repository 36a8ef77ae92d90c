/** `graphrag export`: writes the graph as GraphML, GEXF, JSON, CSV or a self-contained HTML page. */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import type { ExportFormat } from '../export/index.js'
import { MAX_COMMUNITY_LEVEL, oneOf, wholeNumber } from './arguments.js'

// Kept here (not imported) so `graphrag --help` does not load the graph libraries.
const FORMATS: readonly ExportFormat[] = ['graphml', 'gexf', 'json', 'csv', 'html']

interface ExportFlags extends ProjectFlags {
  data?: string
  format: ExportFormat
  level?: number
  out?: string
}

export function registerExportCommand(program: Command): void {
  withProjectOptions(
    program
      .command('export')
      .description(
        'Write the knowledge graph for graph tools (GraphML, GEXF, JSON, CSV) or as an HTML page to explore.',
      ),
  )
    .option('-d, --data <dir>', 'folder with the index tables (default: output_storage.base_dir)')
    .option('-f, --format <format>', 'graphml, gexf, json, csv or html', oneOf(FORMATS), 'html')
    .option(
      '-l, --level <n>',
      'community level nodes are coloured by (default: 0, the top level)',
      wholeNumber(0, MAX_COMMUNITY_LEVEL),
    )
    .option(
      '-o, --out <file>',
      'file to write, or a folder for csv (nodes.csv, edges.csv); - for stdout (default: <output>/export/, or <root>/export/ for an index in object storage)',
    )
    .action(async (flags: ExportFlags) => {
      const { runExport } = await import('../export/index.js')
      const result = await runExport({
        format: flags.format,
        root: flags.root,
        configFile: flags.config,
        dataDir: flags.data,
        level: flags.level,
        out: flags.out,
        stdout: process.stdout,
      })
      for (const warning of result.warnings) process.stderr.write(`graphrag: warning: ${warning}\n`)
      // With --out -, stdout carries the graph itself, so the summary goes to stderr.
      const summary = `${result.nodes} entities, ${result.edges} relationships, communities at level ${result.level}`
      if (result.files.length === 0) process.stderr.write(`graphrag: exported ${summary}\n`)
      else
        process.stdout.write(
          `Exported ${summary} as ${result.format}:\n${result.files.map((f) => `  ${f}\n`).join('')}`,
        )
    })
}
