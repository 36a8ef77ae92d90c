/**
 * Fuzzy and embedding merges of entity resolution (entity_resolution.fuzzy_threshold,
 * embedding_threshold, confirm_with_model; docs/entity-resolution.md): candidate pairs of names, the
 * model's confirmation when asked for, and the key merges the resolution step applies.
 */
import type { Settings } from '../../config/schema.js'
import { mapBounded } from '../../storage/bounded-map.js'
import type { RawEntityRow } from '../../model/raw-graph.js'
import {
  type CandidatePair,
  embeddingCandidates,
  embeddingText,
  fuzzyCandidates,
  type NameGroup,
  rankPairs,
} from '../operations/entity-resolution/candidates.js'
import { confirmPairs, type PairSide } from '../operations/entity-resolution/confirm.js'
import { keyMerges } from '../operations/entity-resolution/key-merges.js'
import { mergeKey, type ResolutionOptions, withoutNoise } from '../operations/entity-resolution/resolve.js'
import { groupByKey, preferred } from '../operations/extract-graph/normalize-titles.js'
import type { ModelsUsed, WorkflowContext } from '../workflow.js'

const EMBED_BATCH = 256

/** The models resolution calls with these settings (joined to the extraction workflow's own). */
export function resolutionModels(settings: Settings): ModelsUsed {
  const er = settings.entity_resolution
  const candidates = er.fuzzy_threshold !== null || er.embedding_threshold !== null
  return {
    chat: candidates && er.confirm_with_model ? [er.completion_model_id] : [],
    embedding: er.embedding_threshold !== null ? [er.embedding_model_id] : [],
  }
}

/**
 * The resolution settings a resume fingerprint holds. The candidate keys join only when fuzzy or
 * embedding matching is on, so an index made before they existed still resumes.
 */
export function resolutionFingerprint(settings: Settings): Record<string, unknown> {
  const {
    fuzzy_threshold,
    fuzzy_min_length,
    embedding_threshold,
    embedding_model_id,
    embedding_max_names,
    confirm_with_model,
    completion_model_id,
    max_candidates,
    ...before
  } = settings.entity_resolution
  if (fuzzy_threshold === null && embedding_threshold === null) return before
  return settings.entity_resolution
}

/** One group per key: the spelling it keeps, its type, and a description for the model. */
function nameGroups(
  entities: readonly RawEntityRow[],
  key: (name: string) => string,
): Map<string, NameGroup & PairSide> {
  const members = groupByKey(entities, key)
  const groups = new Map<string, NameGroup & PairSide>()
  for (const [k, list] of members) {
    const main = list.reduce(preferred)
    groups.set(k, { key: k, title: main.title, type: main.type, description: main.description[0] ?? '' })
  }
  return groups
}

async function embedNames(ctx: WorkflowContext, groups: readonly NameGroup[]): Promise<Map<string, readonly number[]>> {
  const er = ctx.settings.entity_resolution
  const model = ctx.models.embedding(er.embedding_model_id, {
    keyPath: 'entity_resolution.embedding_model_id',
    cachePartition: 'entity_resolution',
  })
  const batches: NameGroup[][] = []
  for (let i = 0; i < groups.length; i += EMBED_BATCH) batches.push(groups.slice(i, i + EMBED_BATCH))
  const vectors = await mapBounded(batches, ctx.settings.concurrent_requests, (batch) =>
    model.embed(batch.map(embeddingText), { signal: ctx.signal }),
  )
  const flat = vectors.flat()
  return new Map(groups.map((g, i) => [g.key, flat[i]!]))
}

/** Each pair once (the more similar finding kept), most similar first. */
function unitePairs(lists: readonly CandidatePair[][]): CandidatePair[] {
  const best = new Map<string, CandidatePair>()
  for (const p of lists.flat()) {
    const id = `${p.a}\u0000${p.b}`
    const seen = best.get(id)
    if (seen === undefined || p.similarity > seen.similarity) best.set(id, p)
  }
  return rankPairs([...best.values()])
}

async function findCandidates(ctx: WorkflowContext, groups: readonly NameGroup[]): Promise<CandidatePair[]> {
  const er = ctx.settings.entity_resolution
  const lists: CandidatePair[][] = []
  if (er.fuzzy_threshold !== null) {
    const fuzzy = fuzzyCandidates(groups, { threshold: er.fuzzy_threshold, minLength: er.fuzzy_min_length })
    ctx.stats.count('resolution_fuzzy_candidates', fuzzy.length)
    lists.push(fuzzy)
  }
  if (er.embedding_threshold !== null) {
    const vectors = await embedNames(ctx, groups)
    const found = embeddingCandidates(groups, vectors, {
      threshold: er.embedding_threshold,
      maxNames: er.embedding_max_names,
    })
    for (const type of found.skipped)
      ctx.stats.warning(
        `entity resolution: ${type} has more names than entity_resolution.embedding_max_names (${er.embedding_max_names}); its names were not compared by embedding`,
      )
    ctx.stats.count('resolution_embedding_candidates', found.pairs.length)
    lists.push(found.pairs)
  }
  return unitePairs(lists)
}

/** The key merges of candidate pairs (empty when fuzzy and embedding matching are off). */
export async function candidateMerges(
  ctx: WorkflowContext,
  entities: readonly RawEntityRow[],
  options: ResolutionOptions,
): Promise<Map<string, string>> {
  const er = ctx.settings.entity_resolution
  if (er.fuzzy_threshold === null && er.embedding_threshold === null) return new Map()
  const groups = nameGroups(withoutNoise(entities, options).kept, mergeKey(options))
  const all = await findCandidates(ctx, [...groups.values()])
  const pairs = all.slice(0, er.max_candidates)
  ctx.stats.count('resolution_candidates', pairs.length)
  if (all.length > pairs.length) {
    ctx.stats.count('resolution_candidates_over_cap', all.length - pairs.length)
    ctx.stats.warning(
      `entity resolution: ${all.length} candidate pairs, only the ${pairs.length} most similar were considered (entity_resolution.max_candidates)`,
    )
  }
  if (!er.confirm_with_model) return keyMerges(pairs)
  const chat = ctx.models.chat(er.completion_model_id, {
    keyPath: 'entity_resolution.completion_model_id',
    cachePartition: 'entity_resolution',
  })
  const side = (key: string) => groups.get(key)!
  const outcome = await confirmPairs(pairs, side, {
    chat,
    concurrency: ctx.settings.concurrent_requests,
    signal: ctx.signal,
  })
  ctx.stats.count('resolution_confirmed', outcome.confirmed.length)
  ctx.stats.count('resolution_rejected', outcome.rejected)
  ctx.stats.count('resolution_unanswered', outcome.unanswered)
  if (outcome.unanswered > 0)
    ctx.stats.warning(
      `entity resolution: ${outcome.unanswered} candidate pairs got no usable answer from ${chat.id} (${outcome.failedCalls} failed calls); they were not merged`,
    )
  return keyMerges(outcome.confirmed)
}
