/**
 * Writes the tuned prompts. An existing file is never replaced without `force`: the tuned text goes
 * beside it as `<name>.tuned.txt` (an earlier tuned copy there is replaced) and the result says so.
 * Also reports which prompt settings do not point at the written files, since only those are used.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Settings } from '../config/schema.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import type { TunedPrompts } from './templates.js'

export interface WrittenPrompt {
  file: string
  /** Where the text went: `file`, or the `.tuned.txt` path beside an existing file. */
  path: string
  outcome: 'written' | 'replaced' | 'beside' | 'unchanged'
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

export async function writePrompts(
  prompts: TunedPrompts,
  outputDir: string,
  force: boolean,
  settings: Settings,
): Promise<WrittenPrompt[]> {
  await mkdir(outputDir, { recursive: true })
  const out: WrittenPrompt[] = []
  for (const [file, key, setting] of FILES) {
    const target = join(outputDir, file)
    const text = prompts[key]
    const existing = existsSync(target) ? readFileSync(target, 'utf8') : undefined
    let path = target
    let outcome: WrittenPrompt['outcome'] = existing === undefined ? 'written' : 'replaced'
    if (existing === text) outcome = 'unchanged'
    else if (existing !== undefined && !force)
      [path, outcome] = [join(outputDir, file.replace(/\.txt$/, '.tuned.txt')), 'beside']
    if (outcome !== 'unchanged') await writeFileAtomic(path, text)
    out.push({ file, path, outcome, setting, settingPointsHere: configuredPath(settings, setting) === resolve(path) })
  }
  return out
}

function configuredPath(settings: Settings, setting: string): string | undefined {
  const [section, key] = setting.split('.') as [string, string]
  const value = (settings as unknown as Record<string, Record<string, unknown>>)[section]?.[key]
  return typeof value === 'string' ? resolve(settings.root, value) : undefined
}
