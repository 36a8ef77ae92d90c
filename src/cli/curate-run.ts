/** What `graphrag curate` does once its flags are parsed (loaded only when it runs). */
import { userInfo } from 'node:os'
import { relative } from 'node:path'
import { loadConfig } from '../config/index.js'
import { addCurationRule, type CurationRule, describeRule, listCurationRules } from '../index/run/curation-edit.js'
import type { CurateFlags } from './curate-command.js'

/** Who made the change, for the audit log: the login name ("cli:alice"). */
function who(): string {
  const name = process.env.USER ?? process.env.USERNAME ?? userInfo().username
  return `cli:${name}`
}

export async function addRule(flags: CurateFlags, rule: CurationRule): Promise<void> {
  const { settings } = loadConfig({ root: flags.root, configFile: flags.config })
  const added = await addCurationRule(settings, rule, who(), new Date())
  const file = relative(process.cwd(), added.file) || added.file
  process.stdout.write(`Added to ${file}: ${describeRule(added.rule)}\n`)
  if (!flags.apply) {
    process.stdout.write(`Run \`graphrag update --root ${flags.root}\` to apply it (or add --apply next time).\n`)
    return
  }
  const { updateCommand } = await import('./update-run.js')
  await updateCommand(
    { root: flags.root, configFile: flags.config, verbose: false, cache: true, skipValidation: false },
    false,
  )
}

export async function listRules(flags: Omit<CurateFlags, 'apply'>): Promise<void> {
  const { settings } = loadConfig({ root: flags.root, configFile: flags.config })
  const { rules, file } = await listCurationRules(settings)
  if (rules.length === 0) return void process.stdout.write(`No curation rules (${file} is absent or empty).\n`)
  process.stdout.write(`${rules.length} rule(s) in ${file}, applied in this order:\n`)
  rules.forEach((rule, i) => process.stdout.write(`${i + 1}. ${describeRule(rule)}\n`))
}
