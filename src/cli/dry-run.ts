/** `graphrag index --dry-run`: settings and inputs checked, workflows listed, nothing called or written. */
import { planIndex, type RunIndexOptions } from '../index/runner.js'

export async function printDryRun(options: RunIndexOptions, out: { write(text: string): unknown }): Promise<void> {
  const plan = await planIndex(options)
  const { settings, warnings } = plan.loaded
  for (const warning of warnings) out.write(`warning: ${warning}\n`)
  out.write(`Settings: ${settings.configFile ?? '(defaults)'} (valid)\n`)
  out.write(`Method: ${plan.method}\n`)
  out.write('Workflows:\n')
  plan.workflows.forEach((w, i) => {
    out.write(`  ${i < plan.resumeFrom ? 'skip' : 'run '}  ${w.name}${i < plan.resumeFrom ? '  (finished before, inputs unchanged)' : ''}\n`)
  })
  out.write('Dry run: nothing was called or written.\n')
}
