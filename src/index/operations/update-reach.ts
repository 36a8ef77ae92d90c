/**
 * Update dry run: how many community reports an update may (re)write, measured on the previous index
 * instead of guessed from the changed documents alone. A report's context changes when one of its
 * community's entities loses or gains a text unit, so the communities (all levels) holding an entity
 * with a text unit of a deleted or edited document are reached for sure. Where such a community loses
 * a member outright (an entity only those documents mention), re-clustering may hand the rest to a
 * neighbouring community, whose report then changes too: one more each. A new document is counted as
 * reaching as many communities as a previous document does on average. Pure row logic.
 */
import type { ReportFigures } from './estimate-usage.js'

/** The columns of the previous index's tables it reads. */
export interface ReachTables {
  readonly documents: ReadonlyArray<{ readonly id: string }>
  readonly textUnits: ReadonlyArray<{ readonly id: string; readonly document_id: string; readonly n_tokens: number }>
  readonly entities: ReadonlyArray<{ readonly id: string; readonly text_unit_ids: readonly string[] | null }>
  readonly communities: ReadonlyArray<{ readonly entity_ids: readonly string[] | null }>
}

export interface UpdateReach extends ReportFigures {
  /** Communities in the previous index. */
  readonly total: number
  /** Deleted and edited documents, and the communities holding an entity of theirs. */
  readonly replacedDocuments: number
  readonly reached: number
  /** Reached communities that lose an entity outright (each may merge into one neighbour). */
  readonly shrinking: number
  readonly newDocuments: number
  /** Communities a previous document reaches on average. */
  readonly perDocument: number
}

/** The documents whose text units mention each entity. */
function documentsByEntity(tables: ReachTables): Map<string, Set<string>> {
  const documentOf = new Map(tables.textUnits.map((u) => [u.id, u.document_id]))
  const documentsOf = new Map<string, Set<string>>()
  for (const entity of tables.entities) {
    const documents = new Set<string>()
    for (const unit of entity.text_unit_ids ?? []) {
      const document = documentOf.get(unit)
      if (document !== undefined) documents.add(document)
    }
    documentsOf.set(entity.id, documents)
  }
  return documentsOf
}

/** What the (document, community) pairs of the previous index add up to. */
interface ReachPairs {
  /** Pairs of a listed document and a community it reaches (a document listed twice counts twice). */
  pairs: number
  /** The members of those pairs' communities, summed. */
  pairMembers: number
  /** Community indexes (into `tables.communities`) a changed document reaches. */
  reached: Set<number>
}

/**
 * One pass over the communities, each one's documents gathered once: at 100k entities a set of
 * reached communities per document (tens of thousands each) cost a second before any workflow ran.
 */
function reachPairs(tables: ReachTables, documentsOf: Map<string, Set<string>>, changed: Set<string>): ReachPairs {
  const listed = new Map<string, number>()
  for (const { id } of tables.documents) listed.set(id, (listed.get(id) ?? 0) + 1)
  const out: ReachPairs = { pairs: 0, pairMembers: 0, reached: new Set() }
  const documents = new Set<string>()
  tables.communities.forEach((community, index) => {
    documents.clear()
    for (const entity of community.entity_ids ?? []) for (const d of documentsOf.get(entity) ?? []) documents.add(d)
    const size = community.entity_ids?.length ?? 0
    for (const document of documents) {
      const times = listed.get(document) ?? 0
      out.pairs += times
      out.pairMembers += times * size
      if (changed.has(document)) out.reached.add(index)
    }
  })
  return out
}

const mean = (sum: number, n: number) => (n === 0 ? 0 : sum / n)

/**
 * `changed` are the previous ids of the deleted and edited documents, `newDocuments` the count of new
 * ones. The report count is rounded up and capped at the number of communities. For the changed
 * documents it is meant as a ceiling (an update may also keep a report whose context changed little,
 * community_reports.update_max_context_change), though a re-clustering that moves members further than
 * one neighbour can exceed it; for new documents it is an average.
 */
export function measureUpdateReach(tables: ReachTables, changed: readonly string[], newDocuments: number): UpdateReach {
  const documentsOf = documentsByEntity(tables)
  const replaced = new Set(changed)
  const { pairs, pairMembers, reached } = reachPairs(tables, documentsOf, replaced)
  const size = (index: number) => tables.communities[index]?.entity_ids?.length ?? 0
  const vanishes = (entity: string) => {
    const documents = [...(documentsOf.get(entity) ?? [])]
    return documents.length > 0 && documents.every((d) => replaced.has(d))
  }
  const shrinking = [...reached].filter((index) => tables.communities[index]!.entity_ids?.some(vanishes)).length
  const perDocument = mean(pairs, tables.documents.length)
  // Multiplied before dividing, so a whole mean stays whole and the rounding up adds nothing.
  const added = mean(newDocuments * pairs, tables.documents.length)
  const reachedMembers = [...reached].reduce((sum, index) => sum + size(index), 0)
  return {
    total: tables.communities.length,
    replacedDocuments: changed.length,
    reached: reached.size,
    shrinking,
    newDocuments,
    perDocument,
    count: Math.min(tables.communities.length, Math.ceil(reached.size + shrinking + added)),
    // New documents' communities are sized like those a previous document reaches (weighted by reach).
    members: mean(reachedMembers + added * mean(pairMembers, pairs), reached.size + added),
    unitTokens: mean(
      tables.textUnits.reduce((sum, u) => sum + u.n_tokens, 0),
      tables.textUnits.length,
    ),
  }
}
