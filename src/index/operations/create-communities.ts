/**
 * create_communities (spec reference-index.md §5.9 steps 5–9): one row per community that has at
 * least one relationship inside it, with members, relationships, text units and the parent/child
 * tree. Ids are derived from content and the period is passed in, so equal input gives equal rows.
 */
import { createHash } from 'node:crypto'
import { InternalError } from '../../errors.js'
import type { CommunityRow } from '../../model/communities.js'
import type { EntityRow } from '../../model/entities.js'
import type { RelationshipRow } from '../../model/relationships.js'
import { clusterEdgeColumns, type Cluster, type ClusterGraphOptions, type ClusterSeeding } from './cluster-graph.js'
import { stableNumbers, type PreviousCommunities } from './community-continuity.js'
import { internalRelationships, type Links } from './internal-relationships.js'
import { relationshipColumns, type RelationshipColumns } from './relationship-columns.js'

type EntityRef = Pick<EntityRow, 'id' | 'title'>
type RelationshipRef = Pick<RelationshipRow, 'id' | 'source' | 'target' | 'weight' | 'text_unit_ids'>

interface CreatedCommunities {
  rows: CommunityRow[]
  /** Relationship pairs clustering left out for a weight ≤ 0. */
  nonPositiveEdges: number
  /** Update runs: how the clustering started from the previous one, and how many communities kept their number. */
  continuity?: ClusterSeeding & { kept: number }
  /** Communities below cluster_graph.min_community_size merged or dropped (absent when the floor is off). */
  sizeFloor?: { merged: number; dropped: number }
}

/**
 * @param period the run date as `YYYY-MM-DD` (UTC), from the injected clock.
 * @param previous update runs: the previous index's communities, to start Leiden from and to keep
 * the numbers of communities whose members did not change.
 */
export function createCommunities(
  entities: ReadonlyArray<EntityRef>,
  relationships: ReadonlyArray<RelationshipRef>,
  options: ClusterGraphOptions,
  period: string,
  previous: PreviousCommunities | undefined,
): CreatedCommunities {
  return createCommunitiesFromColumns(entities, relationshipColumns(relationships), options, period, previous)
}

/** As `createCommunities`, on the relationships kept as columns (what the workflow reads). */
export function createCommunitiesFromColumns(
  entities: ReadonlyArray<EntityRef>,
  relationships: RelationshipColumns,
  options: ClusterGraphOptions,
  period: string,
  previous: PreviousCommunities | undefined,
): CreatedCommunities {
  const { clusters, nonPositiveEdges, seeding, sizeFloor } = clusterEdgeColumns(relationships, options, previous)
  const built = buildRows(clusters, entities, relationships, period, previous)
  const floor = sizeFloor === undefined ? {} : { sizeFloor }
  if (seeding === undefined) return { rows: built.rows, nonPositiveEdges, ...floor }
  return { rows: built.rows, nonPositiveEdges, continuity: { ...seeding, kept: built.kept }, ...floor }
}

/** Steps 6–9 on given clusters (exported for tests that pin the clustering). */
export function buildCommunityRows(
  clusters: ReadonlyArray<Cluster>,
  entities: ReadonlyArray<EntityRef>,
  relationships: ReadonlyArray<RelationshipRef>,
  period: string,
  previous: PreviousCommunities | undefined,
): CommunityRow[] {
  return buildRows(clusters, entities, relationshipColumns(relationships), period, previous).rows
}

function buildRows(
  clusters: ReadonlyArray<Cluster>,
  entities: ReadonlyArray<EntityRef>,
  relationships: RelationshipColumns,
  period: string,
  previous: PreviousCommunities | undefined,
): { rows: CommunityRow[]; kept: number } {
  const idsByTitle = new Map<string, string[]>()
  for (const e of entities) {
    const ids = idsByTitle.get(e.title)
    if (ids) ids.push(e.id)
    else idsByTitle.set(e.title, [e.id])
  }
  const internal = internalRelationships(clusters, relationships)
  const kept: KeptCluster[] = []
  for (const cluster of [...clusters].sort((a, b) => a.level - b.level || a.cluster - b.cluster)) {
    const links = internal.get(cluster.cluster)
    const entityIds = cluster.nodes.flatMap((title) => idsByTitle.get(title) ?? [])
    // Inner joins of the reference: no internal relationship or no known entity → no row.
    if (!links || entityIds.length === 0) continue
    kept.push({ cluster, entityIds, links })
  }
  const renumbered = previous === undefined ? { kept: 0, rows: kept } : renumber(kept, previous)
  return { rows: communityRows(renumbered.rows, period), kept: renumbered.kept }
}

interface KeptCluster {
  cluster: Cluster
  entityIds: string[]
  links: Links
}

/** Stable numbers (community-continuity.ts) applied to clusters and parents, rows re-sorted by (level, number). */
function renumber(kept: KeptCluster[], previous: PreviousCommunities): { rows: KeptCluster[]; kept: number } {
  const { numbers, keptOrder } = stableNumbers(
    kept.map(({ cluster, entityIds }) => ({ level: cluster.level, cluster: cluster.cluster, entityIds })),
    previous,
  )
  const numberOf = (cluster: number) => {
    const number = numbers.get(cluster)
    // A parent holds its children's members and relationships, so it has a row whenever they do.
    if (number === undefined) throw new InternalError(`community ${cluster} has a child but no row`)
    return number
  }
  const rows = kept.map((k) => ({
    ...k,
    entityIds: [...(keptOrder.get(k.cluster.cluster) ?? k.entityIds)],
    cluster: {
      ...k.cluster,
      cluster: numberOf(k.cluster.cluster),
      parent: k.cluster.parent < 0 ? k.cluster.parent : numberOf(k.cluster.parent),
    },
  }))
  rows.sort((a, b) => a.cluster.level - b.cluster.level || a.cluster.cluster - b.cluster.cluster)
  return { rows, kept: keptOrder.size }
}

function communityRows(kept: ReadonlyArray<KeptCluster>, period: string): CommunityRow[] {
  const children = new Map<number, number[]>()
  for (const { cluster } of kept) {
    const list = children.get(cluster.parent)
    if (list) list.push(cluster.cluster)
    else children.set(cluster.parent, [cluster.cluster])
  }
  return kept.map(({ cluster, entityIds, links }) => ({
    id: communityId(cluster.cluster, entityIds),
    human_readable_id: cluster.cluster,
    community: cluster.cluster,
    level: cluster.level,
    parent: cluster.parent,
    children: children.get(cluster.cluster) ?? [],
    title: `Community ${cluster.cluster}`,
    entity_ids: entityIds,
    relationship_ids: links.relationshipIds,
    text_unit_ids: links.textUnitIds,
    period,
    size: entityIds.length,
  }))
}

/** UUID-shaped (version 8, RFC 4122 variant) SHA-256 of the community number and its entity ids. */
function communityId(community: number, entityIds: ReadonlyArray<string>): string {
  const hex = createHash('sha256')
    .update(`community:${community}\n${entityIds.join('\n')}`)
    .digest('hex')
  const variant = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
