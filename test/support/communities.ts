/**
 * The update issue's test of "the same communities as a full index": a valid hierarchy, every
 * community connected in the relationship graph, level-0 modularity within 1 % of the full index's,
 * and one report per community under its number.
 */
import { modularity } from '../../src/graph/leiden/index.js'
import { prepareEdges } from '../../src/index/operations/cluster-graph.js'
import { createHash } from 'node:crypto'
import { EMBEDDING_KEYS } from '../../src/model/embedding-keys.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS } from '../../src/model/index.js'
import type { CommunityRow } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { comparableTables } from './index-files.js'

/**
 * comparableTables without the tables an update may rightly make differ from a full index: the
 * communities (checked by communityShape instead) and what is derived from them row by row.
 */
export async function exactTables(dir: string): Promise<Record<string, string>> {
  const { 'communities.parquet': _c, 'community_reports.parquet': _r, ...rest } = await comparableTables(dir)
  // embedding_keys holds a row per report vector too: those rows follow the communities.
  if (rest['embedding_keys.parquet'] !== undefined) {
    const keys = (await new ParquetTableStore(dir).read(EMBEDDING_KEYS)).filter((r) => !r.name.startsWith('community_'))
    rest['embedding_keys.parquet'] = createHash('sha256').update(JSON.stringify(keys)).digest('hex')
  }
  return rest
}

export interface CommunityShape {
  /** Level-0 modularity over the clustered relationship graph (nodes in no community count alone). */
  modularity: number
  /** Broken hierarchy, disconnected communities, reports missing or extra: one line each. */
  problems: string[]
  communities: CommunityRow[]
}

/** Reads an index folder's communities and checks them (use_lcc as configured: GraphRAG's default true). */
export async function communityShape(dir: string, useLcc = true): Promise<CommunityShape> {
  const store = new ParquetTableStore(dir)
  const communities = await store.read(COMMUNITIES)
  const titleOf = new Map((await store.read(ENTITIES)).map((e) => [e.id, e.title]))
  const relationships = await store.read(RELATIONSHIPS)
  const reports = await store.read(COMMUNITY_REPORTS)
  const problems = hierarchyProblems(communities)
  const neighbours = new Map<string, Set<string>>()
  for (const r of relationships) {
    if (!((r.weight ?? 1) > 0)) continue
    for (const [a, b] of [
      [r.source, r.target],
      [r.target, r.source],
    ] as const) {
      const set = neighbours.get(a)
      if (set) set.add(b)
      else neighbours.set(a, new Set([b]))
    }
  }
  const communityOf = new Map<string, number>()
  for (const c of communities) {
    const titles = (c.entity_ids ?? []).map((id) => titleOf.get(id) ?? `?${id}`)
    if (!connected(titles, neighbours)) problems.push(`community ${c.community} is not connected`)
    if (c.level === 0) for (const t of titles) communityOf.set(t, c.community)
  }
  const { edges } = prepareEdges(relationships, useLcc)
  // Nodes left out of every level-0 community (no row: no internal relationship) each count alone.
  let alone = -1
  for (const [s, t] of edges) for (const v of [s, t]) if (!communityOf.has(v)) communityOf.set(v, alone--)
  const reported = reports.map((r) => `${r.level}:${r.community}`).sort()
  const expected = communities.map((c) => `${c.level}:${c.community}`).sort()
  if (reported.join(',') !== expected.join(','))
    problems.push(`reports (${reported.join(',')}) do not match communities (${expected.join(',')})`)
  return { modularity: modularity(edges, communityOf), problems, communities }
}

function hierarchyProblems(rows: ReadonlyArray<CommunityRow>): string[] {
  const problems: string[] = []
  const byNumber = new Map(rows.map((r) => [r.community, r]))
  if (byNumber.size !== rows.length) problems.push('community numbers repeat')
  if (new Set(rows.map((r) => r.id)).size !== rows.length) problems.push('community ids repeat')
  for (const r of rows) {
    if (r.human_readable_id !== r.community || r.title !== `Community ${r.community}`)
      problems.push(`community ${r.community}: human_readable_id ${r.human_readable_id}, title ${r.title}`)
    if (r.level === 0 && r.parent !== -1) problems.push(`community ${r.community}: level 0 with parent ${r.parent}`)
    if (r.level > 0) {
      const parent = byNumber.get(r.parent ?? -1)
      if (parent?.level !== r.level - 1) problems.push(`community ${r.community}: no parent ${r.parent} one level up`)
      else if (!(r.entity_ids ?? []).every((id) => parent.entity_ids?.includes(id)))
        problems.push(`community ${r.community}: members outside its parent ${r.parent}`)
    }
    const named = rows.filter((c) => c.parent === r.community).map((c) => c.community)
    if ([...r.children].sort().join(',') !== named.sort().join(','))
      problems.push(`community ${r.community}: children [${r.children.join(',')}], rows naming it [${named.join(',')}]`)
  }
  return problems
}

function connected(titles: ReadonlyArray<string>, neighbours: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  if (titles.length <= 1) return true
  const inside = new Set(titles)
  const seen = new Set([titles[0]!])
  const stack = [titles[0]!]
  while (stack.length > 0) {
    for (const u of neighbours.get(stack.pop()!) ?? []) {
      if (inside.has(u) && !seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return seen.size === inside.size
}

/**
 * Communities of the previous index that the change did not reach: no member of their level-0
 * community is an endpoint of a relationship added, removed or re-weighted, nor an entity added or
 * removed. Counts how many of them the current index keeps (same id: same number and members) and
 * how many a full index of the same inputs has (same level and members, whatever the number).
 */
export async function untouchedCommunities(
  previousDir: string,
  currentDir: string,
  fullIndexDir: string,
): Promise<{ untouched: number; keptById: number; inFullIndex: number }> {
  const [before, after] = [new ParquetTableStore(previousDir), new ParquetTableStore(currentDir)]
  const pairs = async (store: ParquetTableStore) =>
    new Map((await store.read(RELATIONSHIPS)).map((r) => [`${r.source}\u0000${r.target}`, String(r.weight)]))
  const [oldPairs, newPairs] = [await pairs(before), await pairs(after)]
  const touched = new Set<string>()
  for (const [key, weight] of [...oldPairs, ...newPairs]) {
    if (oldPairs.get(key) !== weight || newPairs.get(key) !== weight)
      for (const t of key.split('\u0000')) touched.add(t)
  }
  const oldEntities = await before.read(ENTITIES)
  const newTitles = new Set((await after.read(ENTITIES)).map((e) => e.title))
  const oldTitles = new Set(oldEntities.map((e) => e.title))
  for (const t of [...oldTitles, ...newTitles]) if (!oldTitles.has(t) || !newTitles.has(t)) touched.add(t)
  const titleOf = new Map(oldEntities.map((e) => [e.id, e.title]))
  const communities = await before.read(COMMUNITIES)
  const byNumber = new Map(communities.map((c) => [c.community, c]))
  const root = (c: CommunityRow): CommunityRow => (c.level === 0 ? c : root(byNumber.get(c.parent ?? -1) ?? c))
  const untouched = communities.filter(
    (c) => !(root(c).entity_ids ?? []).some((id) => touched.has(titleOf.get(id) ?? '')),
  )
  const members = (c: CommunityRow) => `${c.level}:${[...(c.entity_ids ?? [])].sort().join(',')}`
  const now = new Set((await after.read(COMMUNITIES)).map((c) => c.id))
  const full = new Set((await new ParquetTableStore(fullIndexDir).read(COMMUNITIES)).map(members))
  return {
    untouched: untouched.length,
    keptById: untouched.filter((c) => now.has(c.id)).length,
    inFullIndex: untouched.filter((c) => full.has(members(c))).length,
  }
}
