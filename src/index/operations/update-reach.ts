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

/** Community indexes (into `tables.communities`) each document reaches through its entities. */
function communitiesByDocument(tables: ReachTables, documentsOf: Map<string, Set<string>>): Map<string, Set<number>> {
  const reach = new Map<string, Set<number>>()
  tables.communities.forEach((community, index) => {
    for (const entity of community.entity_ids ?? []) {
      for (const document of documentsOf.get(entity) ?? []) {
        const reached = reach.get(document) ?? new Set<number>()
        reached.add(index)
        reach.set(document, reached)
      }
    }
  })
  return reach
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
  const byDocument = communitiesByDocument(tables, documentsOf)
  const size = (index: number) => tables.communities[index]?.entity_ids?.length ?? 0
  const reached = new Set(changed.flatMap((id) => [...(byDocument.get(id) ?? [])]))
  const replaced = new Set(changed)
  const vanishes = (entity: string) => {
    const documents = [...(documentsOf.get(entity) ?? [])]
    return documents.length > 0 && documents.every((d) => replaced.has(d))
  }
  const shrinking = [...reached].filter((index) => tables.communities[index]!.entity_ids?.some(vanishes)).length
  let pairs = 0
  let pairMembers = 0
  for (const { id } of tables.documents) {
    for (const index of byDocument.get(id) ?? []) {
      pairs++
      pairMembers += size(index)
    }
  }
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
