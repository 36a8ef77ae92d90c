/**
 * The local graph context of each community: its member entities, every relationship touching a
 * member (both endpoints within the level's communities, as the reference selects level edges), and
 * the claims about its members. Relationships are ranked by combined degree (then id); the context
 * is rendered as Entities / Claims / Relationships CSV sections and trimmed to a token budget.
 */
import type { CommunityRow } from '../../../model/communities.js'
import type { CovariateRow } from '../../../model/covariates.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import { renderSection } from './csv.js'

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

export interface ContextInput {
  entities: readonly EntityRow[]
  relationships: readonly RelationshipRow[]
  communities: readonly CommunityRow[]
  /** null when claims are disabled or the covariates table is absent. */
  claims: readonly CovariateRow[] | null
}

export type CountTokens = (text: string) => number

const NO_DESCRIPTION = 'No Description'

/** Local contexts of every community, keyed by community id. */
export function buildLocalContexts(input: ContextInput): Map<number, LocalContext> {
  const entitiesById = new Map(input.entities.map((e) => [e.id, e]))
  const claimsBySubject = groupClaims(input.claims ?? [])
  const out = new Map<number, LocalContext>()
  const levels = new Map<number, CommunityRow[]>()
  for (const c of input.communities) pushTo(levels, c.level, c)
  for (const communities of levels.values()) {
    const membersOf = communities.map((c) => memberDetails(c, entitiesById))
    const levelTitles = new Set(membersOf.flatMap((m) => [...m.keys()]))
    const edgesByTitle = indexLevelEdges(input.relationships, levelTitles)
    communities.forEach((c, i) => {
      const members = membersOf[i]!
      const edges = new Map<number, EdgeDetails>()
      for (const title of members.keys()) for (const e of edgesByTitle.get(title) ?? []) edges.set(e.human_readable_id, e)
      const claims = new Map<string, ClaimDetails[]>()
      for (const title of members.keys()) {
        const list = claimsBySubject.get(title)
        if (list !== undefined) claims.set(title, list)
      }
      out.set(c.community, { community: c.community, level: c.level, members, edges: rankEdges([...edges.values()]), claims })
    })
  }
  return out
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

function memberDetails(community: CommunityRow, entitiesById: ReadonlyMap<string, EntityRow>): Map<string, EntityDetails> {
  const members = new Map<string, EntityDetails>()
  for (const id of community.entity_ids) {
    const e = entitiesById.get(id)
    if (e === undefined) continue
    members.set(e.title, {
      human_readable_id: e.human_readable_id,
      title: e.title,
      description: e.description ?? NO_DESCRIPTION,
      degree: e.degree,
    })
  }
  return members
}

function indexLevelEdges(relationships: readonly RelationshipRow[], levelTitles: ReadonlySet<string>): Map<string, EdgeDetails[]> {
  const byTitle = new Map<string, EdgeDetails[]>()
  for (const r of relationships) {
    if (!levelTitles.has(r.source) || !levelTitles.has(r.target)) continue
    const edge: EdgeDetails = {
      human_readable_id: r.human_readable_id,
      source: r.source,
      target: r.target,
      description: r.description ?? NO_DESCRIPTION,
      combined_degree: r.combined_degree,
    }
    for (const title of new Set([r.source, r.target])) pushTo(byTitle, title, edge)
  }
  return byTitle
}

function groupClaims(claims: readonly CovariateRow[]): Map<string, ClaimDetails[]> {
  const bySubject = new Map<string, ClaimDetails[]>()
  for (const c of claims) {
    if (c.subject_id === null) continue
    const details: ClaimDetails = {
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

/** One step of a context: a relationship with its member endpoints, or a member with no relationship. */
type Step = { edge: EdgeDetails | null; titles: readonly string[] }

/** Steps in rank order: relationships first, then members no relationship mentions (by degree). */
function contextSteps(ctx: LocalContext, members: ReadonlySet<string>): Step[] {
  const steps: Step[] = []
  const seen = new Set<string>()
  for (const edge of ctx.edges) {
    if (!members.has(edge.source) && !members.has(edge.target)) continue
    const titles = [edge.source, edge.target].filter((t) => members.has(t))
    titles.forEach((t) => seen.add(t))
    steps.push({ edge, titles })
  }
  const lone = [...members].filter((t) => !seen.has(t)).map((t) => ctx.members.get(t)!)
  lone.sort((a, b) => b.degree - a.degree || a.human_readable_id - b.human_readable_id)
  for (const e of lone) steps.push({ edge: null, titles: [e.title] })
  return steps
}

function renderSteps(ctx: LocalContext, steps: readonly Step[]): string {
  const entities: EntityDetails[] = []
  const claims: ClaimDetails[] = []
  const edges: EdgeDetails[] = []
  const added = new Set<string>()
  for (const step of steps) {
    for (const title of step.titles) {
      if (added.has(title)) continue
      added.add(title)
      entities.push(ctx.members.get(title)!)
      claims.push(...(ctx.claims.get(title) ?? []))
    }
    if (step.edge !== null) edges.push(step.edge)
  }
  const sections: string[] = []
  if (entities.length > 0) {
    const rows = entities.map((e) => [e.human_readable_id, e.title, e.description, e.degree])
    sections.push(renderSection('Entities', ['human_readable_id', 'title', 'description', 'degree'], rows))
  }
  if (claims.length > 0) {
    const rows = claims.map((c) => [c.human_readable_id, c.subject_id, c.type, c.status, c.description])
    sections.push(renderSection('Claims', ['human_readable_id', 'subject_id', 'type', 'status', 'description'], rows))
  }
  if (edges.length > 0) {
    const rows = edges.map((e) => [e.human_readable_id, e.source, e.target, e.description, e.combined_degree])
    sections.push(renderSection('Relationships', ['human_readable_id', 'source', 'target', 'description', 'combined_degree'], rows))
  }
  return sections.join('\n\n')
}

/** Joins non-empty context parts the way sections are joined. */
export function joinParts(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('\n\n')
}

export interface RenderedContext {
  text: string
  tokens: number
}

/**
 * Renders the context of `members` (default: all members) after `head` (e.g. a Reports section),
 * keeping the longest ranked prefix whose total stays within `budget` tokens. Token counts grow
 * with the prefix, so a binary search finds the same cut as adding one relationship at a time.
 * When even the first step is over budget it is kept anyway (a report needs some input), unless
 * `allowEmpty` (the head alone is enough).
 */
export function renderTrimmed(
  ctx: LocalContext,
  budget: number,
  countTokens: CountTokens,
  options: { members?: ReadonlySet<string>; head?: string; allowEmpty?: boolean } = {},
): RenderedContext {
  const steps = contextSteps(ctx, options.members ?? new Set(ctx.members.keys()))
  const render = (n: number): RenderedContext => {
    const text = joinParts(options.head ?? '', renderSteps(ctx, steps.slice(0, n)))
    return { text, tokens: countTokens(text) }
  }
  const full = render(steps.length)
  if (full.tokens <= budget || steps.length === 0) return full
  let lo = 1
  let hi = steps.length - 1
  let best = render(1)
  if (options.allowEmpty === true && best.tokens > budget) return render(0)
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const candidate = render(mid)
    if (candidate.tokens <= budget) {
      best = candidate
      lo = mid + 1
    } else hi = mid - 1
  }
  return best
}

/** The untrimmed context of `members` (default: all), for budget checks. */
export function renderFull(ctx: LocalContext, countTokens: CountTokens, members?: ReadonlySet<string>): RenderedContext {
  const text = renderSteps(ctx, contextSteps(ctx, members ?? new Set(ctx.members.keys())))
  return { text, tokens: countTokens(text) }
}
