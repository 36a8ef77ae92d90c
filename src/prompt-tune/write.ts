/**
 * Writes the tuned prompts. An existing file is never replaced without `force` or `apply`: the tuned
 * text goes beside it as `<name>.tuned.txt` (an earlier tuned copy there is replaced) and the result
 * says so. `apply` puts the tuned prompts in use: the files they replace (and the settings file) are
 * first copied to `<output>/backup-<time>/`, then the settings are pointed at the tuned prompts.
 * Also reports which prompt settings do not point at the written files, since only those are used.
 */
import { existsSync, readFileSync } from 'node:fs'
import { copyFile, mkdir } from 'node:fs/promises'
import { basename, extname, join, relative, resolve } from 'node:path'
import { parseDocument } from '../vendor/yaml.js'
import type { Settings } from '../config/schema.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import type { TunedPrompts } from './templates.js'

export interface WrittenPrompt {
  file: string
  /** Where the text went: `file`, or the `.tuned.txt` path beside an existing file. */
  path: string
  outcome: 'written' | 'replaced' | 'beside' | 'unchanged' | 'applied'
  /** The settings key that selects this prompt, and whether it points at `path`. */
  setting: string
  settingPointsHere: boolean
}

const FILES = [
  ['extract_graph.txt', 'extractGraph', 'extract_graph.prompt'],
  ['summarize_descriptions.txt', 'summarizeDescriptions', 'summarize_descriptions.prompt'],
  ['community_report_graph.txt', 'communityReportGraph', 'community_reports.graph_prompt'],
  ['community_report_text.txt', 'communityReportText', 'community_reports.text_prompt'],
] as const

/** What `apply` did: where the replaced files went, and the settings keys it pointed at the tuned prompts. */
export interface AppliedPrompts {
  backupDir: string | undefined
  settingsFile: string | undefined
  settingsUpdated: string[]
}

export interface WriteMode {
  force: boolean
  apply: boolean
  /** Time stamp of the backup folder (default: now). */
  now?: Date
}

export async function writePrompts(
  prompts: TunedPrompts,
  outputDir: string,
  mode: WriteMode,
  settings: Settings,
): Promise<{ written: WrittenPrompt[]; applied: AppliedPrompts | undefined }> {
  await mkdir(outputDir, { recursive: true })
  const backupDir = join(outputDir, `backup-${(mode.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`)
  const backup = async (file: string) => {
    await mkdir(backupDir, { recursive: true })
    await copyFile(file, join(backupDir, basename(file)))
  }
  let backedUp = false
  const out: WrittenPrompt[] = []
  for (const [file, key, setting] of FILES) {
    const target = join(outputDir, file)
    const text = prompts[key]
    const existing = existsSync(target) ? readFileSync(target, 'utf8') : undefined
    let path = target
    let outcome: WrittenPrompt['outcome'] = existing === undefined ? 'written' : 'replaced'
    if (existing === text) outcome = 'unchanged'
    else if (existing !== undefined && mode.apply) {
      await backup(target)
      backedUp = true
      outcome = 'applied'
    } else if (existing !== undefined && !mode.force)
      [path, outcome] = [join(outputDir, file.replace(/\.txt$/, '.tuned.txt')), 'beside']
    if (outcome !== 'unchanged') await writeFileAtomic(path, text)
    out.push({ file, path, outcome, setting, settingPointsHere: configuredPath(settings, setting) === resolve(path) })
  }
  if (!mode.apply) return { written: out, applied: undefined }
  const stale = out.filter((w) => !w.settingPointsHere)
  const settingsFile = settings.configFile
  if (stale.length > 0 && settingsFile !== undefined) {
    await backup(settingsFile)
    backedUp = true
    await pointSettingsAt(settingsFile, settings.root, stale)
    for (const w of stale) w.settingPointsHere = true
  }
  return {
    written: out,
    applied: {
      backupDir: backedUp ? backupDir : undefined,
      settingsFile,
      settingsUpdated: settingsFile === undefined ? [] : stale.map((w) => w.setting),
    },
  }
}

/** Sets each prompt's key in the settings file (YAML keeps its comments; JSON is rewritten). */
async function pointSettingsAt(file: string, root: string, prompts: readonly WrittenPrompt[]): Promise<void> {
  const text = readFileSync(file, 'utf8')
  const value = (w: WrittenPrompt) => relative(root, w.path).split('\\').join('/')
  if (extname(file) === '.json') {
    const json = JSON.parse(text) as Record<string, Record<string, unknown>>
    for (const w of prompts) {
      const [section, key] = w.setting.split('.') as [string, string]
      json[section] = { ...(json[section] ?? {}), [key]: value(w) }
    }
    return writeFileAtomic(file, `${JSON.stringify(json, null, 2)}\n`)
  }
  const doc = parseDocument(text)
  for (const w of prompts) doc.setIn(w.setting.split('.'), value(w))
  await writeFileAtomic(file, doc.toString())
}

function configuredPath(settings: Settings, setting: string): string | undefined {
  const [section, key] = setting.split('.') as [string, string]
  const value = (settings as unknown as Record<string, Record<string, unknown>>)[section]?.[key]
  return typeof value === 'string' ? resolve(settings.root, value) : undefined
}
