/**
 * `graphrag normalize-entities` (seed design 000's normalize_entities utility): shows which entities
 * of the current index name normalisation would merge (entity_resolution.normalize_names: NFKC,
 * case, punctuation, edge articles, plurals), for an index built with it off. --apply re-indexes,
 * which re-runs extraction from the cached replies once the setting is on.
 */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import type { IndexMethod } from '../index/plan/pipelines.js'

export interface NormalizeFlags extends ProjectFlags {
  apply: boolean
  limit: string
  method?: IndexMethod
}

export function registerNormalizeEntitiesCommand(program: Command): void {
  withProjectOptions(
    program
      .command('normalize-entities')
      .description(
        'List the entities name normalisation would merge in the current index; --apply re-indexes with it.',
      ),
  )
    .option('--apply', 're-index so the merges happen (needs entity_resolution.normalize_names: true)', false)
    .option('--limit <n>', 'groups listed at most', '50')
    .option(
      '-m, --method <method>',
      'with --apply: the method the index was built with (default from settings, else standard)',
    )
    .action(async (flags: NormalizeFlags) => {
      const { normalizeEntities } = await import('./normalize-entities-run.js')
      await normalizeEntities(flags)
    })
}
