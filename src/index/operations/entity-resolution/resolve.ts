/**
 * Entity resolution, one step of extraction on every index and update: noise dropped, names merged
 * by key, then curation.yaml applied (docs/entity-resolution.md). Pure and deterministic.
 */
import type { Settings } from '../../../config/schema.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../model/raw-graph.js'
import { entityKey } from '../../../text/entity-key.js'
import { normalizeTitles } from '../extract-graph/normalize-titles.js'
import { applyCuration, type CurationOutcome } from './apply-curation.js'
import type { CurationRule } from '../../../config/curation-file.js'
import { NOISE_REASONS, noiseReason, type NoiseReason, type NoiseRules } from './noise.js'

export interface ResolutionOptions {
  /** Merge names with equal keys. */
  readonly normalize: boolean
  readonly plurals: boolean
  /** Undefined: noise control off. */
  readonly noise: NoiseRules | undefined
  readonly rules: readonly CurationRule[]
  /** Keys merged beyond equality (fuzzy or embedding candidates): key → the key of its group. */
  readonly keyMerges?: ReadonlyMap<string, string>
}

export interface Resolution extends CurationOutcome {
  /** Entities dropped as noise, by reason. */
  dropped: Record<NoiseReason, number>
  /** Relationships dropped with a noise entity. */
  droppedRelationships: number
  /** Entities merged into another by name (the aliases the merge made). */
  merged: number
  droppedSelfLoops: number
}

export function resolutionOptions(
  settings: Settings,
  method: 'standard' | 'fast',
  rules: readonly CurationRule[],
): ResolutionOptions {
  const er = settings.entity_resolution
  const generic = {
    modifiers: new Set(er.generic_modifiers),
    nouns: new Set(er.generic_nouns),
    minFrequency: er.generic_min_frequency,
  }
  const noise = { minNameLength: er.min_name_length, stopWords: new Set(er.stop_words) }
  return {
    normalize: er.normalize_names || settings.extract_graph.normalize_titles,
    plurals: er.plurals,
    noise: er.drop_noise ? (method === 'fast' ? { ...noise, generic } : noise) : undefined,
    rules,
  }
}

/** The entities noise control keeps, and how many it dropped for each reason. */
export function withoutNoise(
  entities: readonly RawEntityRow[],
  options: Pick<ResolutionOptions, 'noise'>,
): { kept: RawEntityRow[]; noise: Set<string>; dropped: Record<NoiseReason, number> } {
  const dropped = Object.fromEntries(NOISE_REASONS.map((r) => [r, 0])) as Record<NoiseReason, number>
  const noise = new Set<string>()
  for (const e of entities) {
    const reason = options.noise && noiseReason(e.title, e.frequency, options.noise)
    if (reason === undefined) continue
    dropped[reason]++
    noise.add(e.title)
  }
  return { kept: entities.filter((e) => !noise.has(e.title)), noise, dropped }
}

/** The key names are merged by: the normalised name (or the title itself), then any candidate merge. */
export function mergeKey(options: Pick<ResolutionOptions, 'normalize' | 'plurals'>): (name: string) => string {
  return options.normalize ? (name) => entityKey(name, options.plurals) : (name) => name
}

export function resolveGraph(
  entities: readonly RawEntityRow[],
  relationships: readonly RawRelationshipRow[],
  options: ResolutionOptions,
): Resolution {
  const { kept, noise, dropped } = withoutNoise(entities, options)
  const keptRelationships = relationships.filter((r) => !noise.has(r.source) && !noise.has(r.target))
  const base = mergeKey(options)
  const merges = options.keyMerges ?? new Map<string, string>()
  const key = (name: string) => {
    const k = base(name)
    return merges.get(k) ?? k
  }
  const merged =
    options.normalize || merges.size > 0
      ? normalizeTitles(kept, keptRelationships, key)
      : { entities: kept, relationships: keptRelationships, aliases: [], droppedSelfLoops: 0 }
  const curated = applyCuration(merged, options.rules, key)
  return {
    ...curated,
    dropped,
    droppedRelationships: relationships.length - keptRelationships.length,
    merged: merged.aliases.length,
    droppedSelfLoops: merged.droppedSelfLoops,
  }
}
