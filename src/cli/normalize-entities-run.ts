/** What `graphrag normalize-entities` does once its flags are parsed (loaded only when it runs). */
import type { Settings } from '../config/schema.js'
import { ConfigError } from '../errors.js'
import { ENTITIES } from '../model/entities.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { entityKey } from '../text/entity-key.js'
import type { NormalizeFlags } from './normalize-entities-command.js'

/** Titles sharing a normalised key, groups of two or more, in first-seen order. */
function nameMerges(titles: readonly string[], plurals: boolean): Array<{ key: string; titles: string[] }> {
  const groups = new Map<string, string[]>()
  for (const title of titles) {
    const key = entityKey(title, plurals)
    if (key === '') continue
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [title])
    else if (!group.includes(title)) group.push(title)
  }
  return [...groups].filter(([, group]) => group.length > 1).map(([key, group]) => ({ key, titles: group }))
}

async function listMerges(settings: Settings, limit: number): Promise<number> {
  const store = new ParquetTableStore(settings.output_storage.base_dir, 'js')
  if (!(await store.has(ENTITIES.name))) throw new ConfigError('no entities in the index: run `graphrag index` first')
  const titles = (await store.read(ENTITIES)).map((e) => e.title)
  const merges = nameMerges(titles, settings.entity_resolution.plurals)
  for (const m of merges.slice(0, limit)) process.stdout.write(`${m.key}: ${m.titles.join(' | ')}\n`)
  const entities = merges.reduce((n, m) => n + m.titles.length, 0)
  process.stdout.write(`${merges.length} names would merge ${entities} entities\n`)
  return merges.length
}

export async function normalizeEntities(flags: NormalizeFlags): Promise<void> {
  const { loadConfig } = await import('../config/index.js')
  const { settings } = loadConfig({ root: flags.root, configFile: flags.config })
  const limit = Number(flags.limit)
  if (!Number.isInteger(limit) || limit < 0)
    throw new ConfigError(`--limit: expected a whole number, got ${flags.limit}`)
  const merges = await listMerges(settings, limit)
  if (!flags.apply || merges === 0) return
  if (!settings.entity_resolution.normalize_names && !settings.extract_graph.normalize_titles) {
    throw new ConfigError('--apply: set entity_resolution.normalize_names: true in the settings first', {
      keyPath: 'entity_resolution.normalize_names',
    })
  }
  const { runInterruptibleIndex } = await import('./interruptible-index.js')
  const { createConsoleReporter } = await import('./console-reporter.js')
  const options = { root: flags.root, configFile: flags.config, method: flags.method }
  await runInterruptibleIndex(options, createConsoleReporter())
}
