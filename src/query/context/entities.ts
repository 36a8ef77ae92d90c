/**
 * Local search, step one: map the question to entities through the entity_description vectors,
 * and render the Entities table. `top_k_entities` means exactly k entities: the search fetches
 * more candidates until k of them are known entities (the reference returns up to 2k).
 */
import type { EmbeddingModel } from '../../llm/types.js'
import type { EntityRow } from '../../model/index.js'
import { embedOne, type UsageMeter } from '../usage.js'
import type { QueryVectors } from '../vectors.js'
import { renderRow, renderTable, fillRows } from './table-format.js'

export interface EntityMappingInput {
  /** Text to embed: the question, plus recent user turns when there is a history. */
  text: string
  k: number
  entities: readonly EntityRow[]
  vectors: QueryVectors
  embedder: EmbeddingModel
  meter: UsageMeter
}

export async function mapQueryToEntities(input: EntityMappingInput): Promise<EntityRow[]> {
  const { k, entities } = input
  if (input.text.trim() === '') return [...entities].sort((a, b) => b.degree - a.degree).slice(0, k)
  const byId = new Map<string, EntityRow>()
  for (const e of entities) {
    byId.set(e.id, e)
    // Some older stores keyed entities by the uuid without dashes.
    byId.set(e.id.replace(/-/g, ''), e)
  }
  const vector = await embedOne(input.embedder, input.meter, input.text)
  let fetch = Math.max(2 * k, k + 10)
  for (;;) {
    const hits = await input.vectors.search('entity_description', vector, fetch)
    const found: EntityRow[] = []
    const seen = new Set<string>()
    for (const hit of hits) {
      const entity = byId.get(hit.id) ?? byId.get(hit.id.replace(/-/g, ''))
      if (entity === undefined || seen.has(entity.id)) continue
      seen.add(entity.id)
      found.push(entity)
      if (found.length === k) return found
    }
    // Fewer hits than asked for: the table is exhausted.
    if (hits.length < fetch) return found
    fetch *= 2
  }
}

const ENTITY_HEADER = ['id', 'entity', 'description', 'number of relationships'] as const

export function entityRecord(e: EntityRow): Record<string, string | number> {
  return {
    id: e.human_readable_id,
    entity: e.title,
    description: e.description ?? '',
    'number of relationships': e.degree,
  }
}

/** The Entities table, in mapping order, filled under `budget` tokens. */
export function entityTable(
  selected: readonly EntityRow[],
  budget: number,
  countTokens: (text: string) => number,
): { text: string; kept: EntityRow[]; tokens: number } {
  const head = renderTable('Entities', ENTITY_HEADER, [])
  const headTokens = countTokens(head)
  if (headTokens > budget) return { text: '', kept: [], tokens: 0 }
  const render = (e: EntityRow) => renderRow(Object.values(entityRecord(e)))
  const fill = fillRows(selected, render, budget - headTokens, countTokens)
  return { text: head + fill.rows.join(''), kept: fill.kept, tokens: headTokens + fill.tokens }
}
