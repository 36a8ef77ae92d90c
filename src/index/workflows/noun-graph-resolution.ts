/**
 * The fast method's noun graph through entity resolution with its pairs kept as columns
 * (noun-pairs.ts). When resolution renames no name and no curation rule applies (the usual case), it
 * only drops pairs touching noise, which the columns do in place; a rename or a rule merges pairs, and
 * then the pairs become rows for the row-based resolution as before (same rows, same result).
 */
import type { RawEntityRow } from '../../model/raw-graph.js'
import type { RowSource } from '../../storage/table-store.js'
import { buildNodes, type NounGraph, type NounGraphRelationshipRow } from '../operations/build-noun-graph.js'
import { type Resolution, type ResolutionOptions, resolveGraph } from '../operations/entity-resolution/resolve.js'
import type { TextUnitPhrases } from '../operations/noun-phrases/cached.js'
import { buildNounPairs, keepPairs, type NounPairs, pairRows } from '../operations/noun-pairs.js'
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
 * Resolution when it renames nothing: the entity side as resolveGraph makes it, the pairs of noise
 * entities dropped in place. Undefined when names are renamed or merged, a curation rule is given, or
 * the phrases' code-point order is not their UTF-16 order (the row path re-sorts by the latter).
 */
function resolvedInColumns(
  pairs: NounPairs,
  entities: readonly RawEntityRow[],
  options: ResolutionOptions,
): Resolution | undefined {
  if (options.rules.length > 0 || !ascendingInUtf16(pairs.titles)) return undefined
  const entitySide = resolveGraph(entities, [], options)
  if (entitySide.aliases.length > 0) return undefined
  const kept = new Set(entitySide.entities.map((e) => e.title))
  const keep = Uint8Array.from(pairs.titles, (title) => (kept.has(title) ? 1 : 0))
  return { ...entitySide, droppedRelationships: keepPairs(pairs, (rank) => keep[rank] === 1) }
}

function ascendingInUtf16(titles: readonly string[]): boolean {
  for (let i = 1; i < titles.length; i++) if (!(titles[i - 1]! < titles[i]!)) return false
  return true
}
