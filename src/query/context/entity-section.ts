/**
 * Entities, Relationships and Claims under one budget. Entities are added nearest first, each with
 * its relationships (in- and out-network, see relationships.ts) and claims, until the next one's
 * tables no longer fit; the Relationships and Claims tables describe that prefix (as in the
 * reference). Mapped entities after the prefix still get Entities rows in the room left (a row too
 * long is skipped, a later shorter one may fit), so the Entities table can name more entities than
 * the other two. When even the first entity does not fit whole, its own rows are filled greedily
 * instead of leaving the section empty.
 */
import type { CovariateRow, EntityRow } from '../../model/index.js'
import type { IndexRelationship } from '../load-index.js'
import { claimTable, selectClaims } from './claims.js'
import { entityTable } from './entities.js'
import { relationshipTable, selectRelationships } from './relationships.js'

interface TablePart<T> {
  text: string
  kept: T[]
  tokens: number
}

export interface EntitySection {
  entities: TablePart<EntityRow>
  relationships: TablePart<IndexRelationship>
  claims: TablePart<CovariateRow>
  tokens: number
}

export function buildEntitySection(
  selected: readonly EntityRow[],
  relationships: readonly IndexRelationship[],
  covariates: readonly CovariateRow[],
  topKRelationships: number,
  budget: number,
  countTokens: (text: string) => number,
): EntitySection {
  const count = memoize(countTokens)
  const unlimited = Number.POSITIVE_INFINITY
  let best: EntitySection | undefined
  for (let i = 1; i <= selected.length; i++) {
    const prefix = selected.slice(0, i)
    const entities = entityTable(prefix, unlimited, count)
    const rels = relationshipTable(selectRelationships(prefix, relationships, topKRelationships), unlimited, count)
    const claims = claimTable(selectClaims(prefix, covariates), unlimited, count)
    const tokens = entities.tokens + rels.tokens + claims.tokens
    if (tokens > budget) break
    best = { entities, relationships: rels, claims, tokens }
  }
  if (best === undefined)
    return greedy(selected.slice(0, 1), relationships, covariates, topKRelationships, budget, count)
  // Entities past the prefix still get their rows while room remains (without their relationships).
  const entities = entityTable(selected, budget - best.relationships.tokens - best.claims.tokens, count)
  return { ...best, entities, tokens: entities.tokens + best.relationships.tokens + best.claims.tokens }
}

function greedy(
  first: readonly EntityRow[],
  relationships: readonly IndexRelationship[],
  covariates: readonly CovariateRow[],
  topK: number,
  budget: number,
  count: (text: string) => number,
): EntitySection {
  const entities = entityTable(first, budget, count)
  const rels = relationshipTable(
    selectRelationships(entities.kept, relationships, topK),
    budget - entities.tokens,
    count,
  )
  const claims = claimTable(selectClaims(entities.kept, covariates), budget - entities.tokens - rels.tokens, count)
  return { entities, relationships: rels, claims, tokens: entities.tokens + rels.tokens + claims.tokens }
}

/** Rows are re-rendered for every prefix; counting each distinct row once keeps this linear-ish. */
function memoize(countTokens: (text: string) => number): (text: string) => number {
  const cache = new Map<string, number>()
  return (text) => {
    let n = cache.get(text)
    if (n === undefined) cache.set(text, (n = countTokens(text)))
    return n
  }
}
