/**
 * `graphrag normalize-entities` (seed design 000's normalize_entities utility): shows which entities
 * of the current index name normalisation would merge (entity_resolution.normalize_names: NFKC,
 * case, punctuation, edge articles, plurals), for an index built with it off. --apply re-indexes,
 * which re-runs extraction from the cached replies once the setting is on.
 */
import type { Command } from 'commander'
import type { Settings } from '../config/schema.js'
import type { IndexMethod } from '../index/plan/pipelines.js'
import { ConfigError } from '../errors.js'
import { ENTITIES } from '../model/entities.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { entityKey } from '../text/entity-key.js'

interface NormalizeFlags {
  root: string
  config?: string
  apply: boolean
  limit: string
  method?: IndexMethod
}

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

export function registerNormalizeEntitiesCommand(program: Command): void {
  program
    .command('normalize-entities')
    .description('List the entities name normalisation would merge in the current index; --apply re-indexes with it.')
    .option('-r, --root <dir>', 'project root', '.')
    .option('-c, --config <file>', 'settings file (default: settings.yaml/.yml/.json in the root)')
    .option('--apply', 're-index so the merges happen (needs entity_resolution.normalize_names: true)', false)
    .option('--limit <n>', 'groups listed at most', '50')
    .option(
      '-m, --method <method>',
      'with --apply: the method the index was built with (default from settings, else standard)',
    )
    .action(async (flags: NormalizeFlags) => {
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
    })
}
