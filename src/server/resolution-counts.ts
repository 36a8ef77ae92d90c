/** Entity resolution's counts of the last run (stats.json), for /diagnostics and `graphrag diagnostics`. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseJson, unlessAbsent } from '../storage/fs-errors.js'

const EXTRACTION_WORKFLOWS = ['extract_graph', 'extract_graph_nlp']
const COUNTED = /^(merged_spellings|noise_\w+|curation_rules_\w+)$/u

interface StatsShape {
  workflows?: Record<string, { counters?: Record<string, number> }>
}

/** merged_spellings, noise_* and curation_rules_* of the extraction workflow; null without stats.json or counts. */
export async function entityResolutionCounts(dir: string): Promise<Record<string, number> | null> {
  const path = join(dir, 'stats.json')
  const text = await unlessAbsent(path, 'read', () => readFile(path, 'utf8'), undefined)
  const stats = text === undefined ? undefined : parseJson<StatsShape>(text)
  for (const name of EXTRACTION_WORKFLOWS) {
    const counters = stats?.workflows?.[name]?.counters
    if (counters === undefined) continue
    const picked = Object.entries(counters).filter(([key]) => COUNTED.test(key))
    if (picked.length > 0) return Object.fromEntries(picked)
  }
  return null
}
