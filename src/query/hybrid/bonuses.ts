/**
 * Structure bonuses added to a candidate's normalised fused score: shared question entities,
 * co-occurrence of question entities, typed chunk edges from the top passages (relation weight ×
 * confidence) and, optionally, degree centrality of the passage's entities.
 */
import type { ChunkEdgeRow } from '../../model/index.js'

export interface BonusWeights {
  sharedEntity: number
  cooccurrence: number
  /** 0 turns the degree bonus off. */
  degree: number
  /** Weight per chunk-edge relation; `default` for relations not listed. */
  edgeWeights: Readonly<Record<string, number>>
}

export interface Bonuses {
  shared_entities: number
  cooccurrence: number
  edge: number
  degree: number
}

/** The chunk edge that gave a candidate its edge bonus. */
export interface EdgeLink {
  /** The top passage the edge connects to. */
  from: string
  relation: string
  /** The edge's weight, read as the confidence of the relation (clamped to [0, 1]). */
  confidence: number
  bonus: number
}

export function totalBonus(b: Bonuses): number {
  return b.shared_entities + b.cooccurrence + b.edge + b.degree
}

/** Bonuses from the passage's entities: the share of question entities it names, of their pairs it names together, and their mean degree. */
export function entityBonuses(
  unitEntities: ReadonlySet<string>,
  questionEntities: ReadonlySet<string>,
  degreeShare: ReadonlyMap<string, number>,
  weights: BonusWeights,
): Omit<Bonuses, 'edge'> {
  const shared = [...questionEntities].filter((e) => unitEntities.has(e)).length
  const n = questionEntities.size
  const pairs = (n * (n - 1)) / 2
  const sharedPairs = shared < 2 ? 0 : (shared * (shared - 1)) / 2
  let degree = 0
  if (weights.degree > 0 && unitEntities.size > 0) {
    degree =
      weights.degree * ([...unitEntities].reduce((sum, e) => sum + (degreeShare.get(e) ?? 0), 0) / unitEntities.size)
  }
  return {
    shared_entities: n === 0 ? 0 : weights.sharedEntity * (shared / n),
    cooccurrence: pairs === 0 ? 0 : weights.cooccurrence * (sharedPairs / pairs),
    degree,
  }
}

/**
 * Edge bonuses of the passages linked (either direction) to one of the `seeds`: the best
 * relation weight × confidence per linked passage; a seed's edge to itself or to another seed
 * counts too. Ties keep the first seed (seeds are in rank order), then the first edge by id.
 */
export function edgeBonuses(
  seeds: readonly string[],
  edges: readonly ChunkEdgeRow[],
  weights: BonusWeights,
): Map<string, EdgeLink> {
  const seedRank = new Map(seeds.map((id, i) => [id, i]))
  const out = new Map<string, EdgeLink>()
  const sorted = [...edges].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const consider = (from: string, to: string, edge: ChunkEdgeRow) => {
    if (from === to) return
    const confidence = Math.min(1, Math.max(0, edge.weight ?? 0))
    const bonus = (weights.edgeWeights[edge.relation] ?? weights.edgeWeights.default ?? 0) * confidence
    const current = out.get(to)
    if (
      current === undefined ||
      bonus > current.bonus ||
      (bonus === current.bonus && seedRank.get(from)! < seedRank.get(current.from)!)
    ) {
      out.set(to, { from, relation: edge.relation, confidence, bonus })
    }
  }
  for (const edge of sorted) {
    if (seedRank.has(edge.source_id)) consider(edge.source_id, edge.target_id, edge)
    if (seedRank.has(edge.target_id)) consider(edge.target_id, edge.source_id, edge)
  }
  return out
}

/** Each entity's degree divided by the largest degree (0 when the graph has no edges). */
export function degreeShares(entities: ReadonlyArray<{ id: string; degree: number | null }>): Map<string, number> {
  const degrees = entities.map((e) => Number(e.degree ?? 0))
  const max = Math.max(0, ...degrees)
  return new Map(entities.map((e, i) => [e.id, max > 0 ? degrees[i]! / max : 0]))
}
