/** `graphrag diagnostics`: the report of the server's /diagnostics, printed from the CLI. */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'

interface DiagnosticsFlags extends ProjectFlags {
  json: boolean
}

export function registerDiagnosticsCommand(program: Command): void {
  withProjectOptions(
    program
      .command('diagnostics')
      .description(
        'Report on the index, its tables and vectors, model reachability and the settings in force (secrets masked).',
      ),
  )
    .option('--json', 'print the report as JSON (the same as GET /diagnostics)', false)
    .action(async (flags: DiagnosticsFlags) => {
      const { loadConfig } = await import('../config/index.js')
      const { diagnose } = await import('../server/diagnostics.js')
      const { ModelProbe } = await import('../server/model-probe.js')
      const { formatDiagnostics } = await import('./diagnostics-format.js')
      const report = await diagnose(loadConfig({ root: flags.root, configFile: flags.config }), new ModelProbe())
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatDiagnostics(report))
      if (report.models.some((m) => !m.reachable)) process.exitCode = 1
    })
}
