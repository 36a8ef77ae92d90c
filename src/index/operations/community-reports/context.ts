/**
 * The local graph context of each community: its member entities, every relationship touching a
 * member (both endpoints within the level's communities, as the reference selects level edges), and
 * the claims about its members. Relationships are ranked by combined degree (then id); rendering
 * and trimming to a token budget live in context-render.ts.
 */
import type { CommunityRow } from '../../../model/communities.js'
import type { CovariateRow } from '../../../model/covariates.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'

export interface EntityDetails {
  human_readable_id: number
  title: string
  description: string
  degree: number
}

export interface EdgeDetails {
  human_readable_id: number
  source: string
  target: string
  description: string
  combined_degree: number
}

export interface ClaimDetails {
  /** The claim's id: what names it in every index generation. */
  id: string
  human_readable_id: number
  subject_id: string
  type: string | null
  status: string | null
  description: string | null
}

/** Everything a community's own context may hold, ranked; rendering picks a prefix. */
export interface LocalContext {
  community: number
  level: number
  /** Member entities by title. */
  members: ReadonlyMap<string, EntityDetails>
  /** Relationships touching a member, by combined_degree desc then human_readable_id asc. */
  edges: readonly EdgeDetails[]
  /** Claims by subject title (members only). */
  claims: ReadonlyMap<string, readonly ClaimDetails[]>
}

/** The columns of each table a context is built from (a large graph's other columns are not read). */
type ContextEntity = Pick<EntityRow, 'id' | 'human_readable_id' | 'title' | 'description' | 'degree'>
type ContextRelationship = Pick<
  RelationshipRow,
  'human_readable_id' | 'source' | 'target' | 'description' | 'combined_degree'
>
export type ContextCommunity = Pick<CommunityRow, 'community' | 'level' | 'children' | 'entity_ids' | 'size'>

export interface ContextInput {
  entities: readonly ContextEntity[]
  relationships: readonly ContextRelationship[]
  communities: readonly ContextCommunity[]
  /** null when claims are disabled or the covariates table is absent. */
  claims: readonly CovariateRow[] | null
}

const NO_DESCRIPTION = 'No Description'

/** Local contexts of every community, keyed by community id. */
export function buildLocalContexts(input: ContextInput): Map<number, LocalContext> {
  const entitiesById = new Map(input.entities.map((e) => [e.id, e]))
  const claimsBySubject = groupClaims(input.claims ?? [])
  // Ranked once for every level and community: a community's edges are this order's subsequence.
  const ranked = rankEdges(input.relationships.map(edgeDetails))
  const out = new Map<number, LocalContext>()
  const levels = new Map<number, ContextCommunity[]>()
  for (const c of input.communities) pushTo(levels, c.level, c)
  const details = sharedDetails(entitiesById)
  for (const communities of levels.values()) {
    const membersOf = communities.map((c) => memberDetails(c, details))
    const edgesOf = levelEdges(ranked, membersOf)
    communities.forEach((c, i) => {
      const members = membersOf[i]!
      const claims = new Map<string, ClaimDetails[]>()
      for (const title of members.keys()) {
        const list = claimsBySubject.get(title)
        if (list !== undefined) claims.set(title, list)
      }
      out.set(c.community, { community: c.community, level: c.level, members, edges: edgesOf[i]!, claims })
    })
  }
  return out
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * Each entity's details by id, made when first asked for and then shared by its community at every
 * level (one object per entity, not per level; fingerprints and rendered lines are kept per object).
 */
function sharedDetails(entitiesById: ReadonlyMap<string, ContextEntity>): (id: string) => EntityDetails | undefined {
  const made = new Map<string, EntityDetails>()
  return (id) => {
    let details = made.get(id)
    if (details === undefined) {
      const e = entitiesById.get(id)
      if (e === undefined) return undefined
      details = {
        human_readable_id: e.human_readable_id,
        title: e.title,
        description: e.description ?? NO_DESCRIPTION,
        degree: e.degree,
      }
      made.set(id, details)
    }
    return details
  }
}

function memberDetails(
  community: ContextCommunity,
  detailsOf: (id: string) => EntityDetails | undefined,
): Map<string, EntityDetails> {
  const members = new Map<string, EntityDetails>()
  for (const id of community.entity_ids) {
    const e = detailsOf(id)
    if (e !== undefined) members.set(e.title, e)
  }
  return members
}

const edgeDetails = (r: ContextRelationship): EdgeDetails => ({
  human_readable_id: r.human_readable_id,
  source: r.source,
  target: r.target,
  description: r.description ?? NO_DESCRIPTION,
  combined_degree: r.combined_degree,
})

/**
 * Each community's edges at one level, in rank order: every ranked edge whose endpoints are both in
 * the level's communities goes to the communities holding either endpoint (once to a community that
 * holds both). A title normally has one community per level; the lists allow more.
 */
function levelEdges(ranked: readonly EdgeDetails[], membersOf: ReadonlyArray<ReadonlyMap<string, unknown>>) {
  const homes = new Map<string, number[]>()
  membersOf.forEach((members, i) => {
    for (const title of members.keys()) pushTo(homes, title, i)
  })
  const edges = membersOf.map((): EdgeDetails[] => [])
  for (const edge of ranked) {
    const from = homes.get(edge.source)
    const to = homes.get(edge.target)
    if (from === undefined || to === undefined) continue
    for (const i of from) edges[i]!.push(edge)
    for (const i of to) if (!from.includes(i)) edges[i]!.push(edge)
  }
  return edges
}

function groupClaims(claims: readonly CovariateRow[]): Map<string, ClaimDetails[]> {
  const bySubject = new Map<string, ClaimDetails[]>()
  for (const c of claims) {
    if (c.subject_id === null) continue
    const details: ClaimDetails = {
      id: c.id,
      human_readable_id: c.human_readable_id,
      subject_id: c.subject_id,
      type: c.type,
      status: c.status,
      description: c.description,
    }
    pushTo(bySubject, c.subject_id, details)
  }
  return bySubject
}

function rankEdges(edges: EdgeDetails[]): EdgeDetails[] {
  return edges.sort((a, b) => b.combined_degree - a.combined_degree || a.human_readable_id - b.human_readable_id)
}
