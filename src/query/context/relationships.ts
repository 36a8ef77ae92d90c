/**
 * Relationships for the selected entities: in-network ones (both ends selected) first, by
 * combined degree; then out-network ones (one end selected), preferring outside entities linked
 * to several selected ones, capped at top_k_relationships per selected entity. The link count
 * is computed per query and never stored on shared rows (the reference leaks it as a column).
 */
import type { EntityRow } from '../../model/index.js'
import type { IndexRelationship } from '../load-index.js'
import { fillRows, float, renderRow, renderTable } from './table-format.js'

export function selectRelationships(
  selected: readonly EntityRow[],
  relationships: readonly IndexRelationship[],
  topK: number,
): IndexRelationship[] {
  const names = new Set(selected.map((e) => e.title))
  const byRank = (a: IndexRelationship, b: IndexRelationship) => b.combined_degree - a.combined_degree
  const inNetwork = relationships.filter((r) => names.has(r.source) && names.has(r.target)).sort(byRank)
  const outNetwork = [
    ...relationships.filter((r) => names.has(r.source) && !names.has(r.target)),
    ...relationships.filter((r) => names.has(r.target) && !names.has(r.source)),
  ].sort(byRank)
  if (outNetwork.length <= 1) return [...inNetwork, ...outNetwork]
  const outside = (r: IndexRelationship) => (names.has(r.source) ? r.target : r.source)
  const links = new Map<string, Set<string>>()
  for (const r of outNetwork) {
    const inside = names.has(r.source) ? r.source : r.target
    const set = links.get(outside(r)) ?? new Set<string>()
    set.add(inside)
    links.set(outside(r), set)
  }
  const linkCount = (r: IndexRelationship) => links.get(outside(r))?.size ?? 0
  const ranked = [...outNetwork].sort((a, b) => linkCount(b) - linkCount(a) || byRank(a, b))
  return [...inNetwork, ...ranked.slice(0, topK * selected.length)]
}

const RELATIONSHIP_HEADER = ['id', 'source', 'target', 'description', 'weight'] as const

export function relationshipRecord(r: IndexRelationship): Record<string, string | number | { float: number }> {
  return {
    id: r.human_readable_id,
    source: r.source,
    target: r.target,
    description: r.description ?? '',
    weight: float(r.weight),
  }
}

export function relationshipTable(
  rows: readonly IndexRelationship[],
  budget: number,
  countTokens: (text: string) => number,
): { text: string; kept: IndexRelationship[]; tokens: number } {
  if (rows.length === 0) return { text: '', kept: [], tokens: 0 }
  const head = renderTable('Relationships', RELATIONSHIP_HEADER, [])
  const headTokens = countTokens(head)
  const fill = fillRows(rows, (r) => renderRow(Object.values(relationshipRecord(r))), budget - headTokens, countTokens)
  if (fill.kept.length === 0) return { text: '', kept: [], tokens: 0 }
  return { text: head + fill.rows.join(''), kept: fill.kept, tokens: headTokens + fill.tokens }
}
