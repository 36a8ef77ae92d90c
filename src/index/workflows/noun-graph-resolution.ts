/**
 * The fast method's noun graph through entity resolution with its pairs kept as columns
 * (noun-pairs.ts): pairs touching noise are dropped in place and renamed spellings merged on the
 * columns; a curation rule (or phrases whose code-point and UTF-16 orders differ) turns the pairs into
 * rows for the row-based resolution as before (same rows, same result).
 */
import type { RawEntityRow } from '../../model/raw-graph.js'
import type { RowSource } from '../../storage/table-store.js'
import { buildNodes, type NounGraph, type NounGraphRelationshipRow } from '../operations/build-noun-graph.js'
import { type Resolution, type ResolutionOptions, resolveGraph } from '../operations/entity-resolution/resolve.js'
import type { TextUnitPhrases } from '../operations/noun-phrases/cached.js'
import { buildNounPairs, keepPairs, type NounPairs, pairRows } from '../operations/noun-pairs.js'
import { renamePairs } from '../operations/rename-pairs.js'
import type { WorkflowContext } from '../workflow.js'
import { fromRawGraph, resolveEntitiesWith, toRawGraph } from './entity-resolution-step.js'

export interface ResolvedNounGraph {
  entities: NounGraph['entities']
  /** Made a row group at a time when written. */
  relationships: RowSource<NounGraphRelationshipRow>
}

/** Builds the noun graph of the units' phrases and resolves its names (resolveEntities' tables and counts). */
export async function resolvedNounGraph(
  ctx: WorkflowContext,
  phrases: readonly TextUnitPhrases[],
  normalizeEdgeWeights: boolean,
): Promise<ResolvedNounGraph> {
  const pairs = buildNounPairs(phrases, normalizeEdgeWeights)
  const nodes = toRawGraph({ entities: buildNodes(phrases), relationships: [] }).entities
  let inColumns = true
  const resolution = await resolveEntitiesWith(ctx, nodes, 'fast', (entities, options) => {
    const inPlace = resolvedInColumns(pairs, entities, options)
    if (inPlace !== undefined) return inPlace
    inColumns = false
    const rows = toRawGraph({ entities: [], relationships: pairRows(pairs).slice() }).relationships
    return resolveGraph(entities, rows, options)
  })
  if (!inColumns) return fromRawGraph(resolution)
  return { entities: fromRawGraph({ ...resolution, relationships: [] }).entities, relationships: pairRows(pairs) }
}

/**
 * Resolution on the columns: the entity side as resolveGraph makes it, the pairs of noise entities
 * dropped in place, renamed spellings merged (rename-pairs.ts). Undefined when a curation rule is
 * given, or the phrases' code-point order is not their UTF-16 order (the row path re-sorts by the latter).
 */
function resolvedInColumns(
  pairs: NounPairs,
  entities: readonly RawEntityRow[],
  options: ResolutionOptions,
): Resolution | undefined {
  if (options.rules.length > 0 || !ascendingInUtf16(pairs.titles)) return undefined
  const entitySide = resolveGraph(entities, [], options)
  const kept = new Set([...entitySide.entities.map((e) => e.title), ...entitySide.aliases.map((a) => a.alias)])
  const keep = Uint8Array.from(pairs.titles, (title) => (kept.has(title) ? 1 : 0))
  const droppedRelationships = keepPairs(pairs, (rank) => keep[rank] === 1)
  const droppedSelfLoops = entitySide.aliases.length > 0 ? renamePairs(pairs, canonicalRanks(pairs, entitySide)) : 0
  return { ...entitySide, droppedRelationships, droppedSelfLoops }
}

/** Each phrase's rank, or the rank of the name it merges into. */
function canonicalRanks(pairs: NounPairs, resolution: Resolution): Int32Array {
  const rank = new Map(pairs.titles.map((title, i) => [title, i]))
  const canonical = Int32Array.from(pairs.titles, (_, i) => i)
  for (const { title, alias } of resolution.aliases) canonical[rank.get(alias)!] = rank.get(title)!
  return canonical
}

function ascendingInUtf16(titles: readonly string[]): boolean {
  for (let i = 1; i < titles.length; i++) if (!(titles[i - 1]! < titles[i]!)) return false
  return true
}
