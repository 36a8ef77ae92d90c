/**
 * finalize_graph on the relationships as columns (TableStore's column read): degrees counted on title
 * codes, repeated pairs found on codes, and each final relationship row made only when the writer asks
 * for its row group. The same rows as finalizeGraph (finalize-graph.ts), which stays the reference.
 */
import type { RelationshipRow } from '../../model/relationships.js'
import type { RowSource } from '../../storage/table-store.js'
import { columnOf, type TableColumns, valueAt } from '../../storage/table-columns.js'
import { relationshipId } from './graph-ids.js'
import { leadingPairsOutOfOrder } from './pair-order.js'
import { degreesOfCodes, orderedUniqueCodes } from './prune-codes.js'

export interface FinalRelationships {
  /** The final rows, made a slice at a time. */
  readonly rows: RowSource<RelationshipRow>
  /** Each linked title's degree (titles without relationships are absent, degree 0). */
  readonly degrees: Map<string, number>
}

/** Final relationships from the columns source, target, description, weight and text_unit_ids. */
export function finalRelationshipColumns(table: TableColumns): FinalRelationships {
  const pairs = {
    source: columnOf(table, 'source', 'string').codes,
    target: columnOf(table, 'target', 'string').codes,
    titles: table.values,
  }
  // One walk over the pairs (string comparisons of millions of titles) serves the degrees and the repeats.
  const orderedUnique = !leadingPairsOutOfOrder(pairs) && orderedUniqueCodes(pairs)
  const counts = degreesOfCodes(pairs, orderedUnique)
  const degrees = new Map<string, number>()
  counts.forEach((degree, code) => {
    if (degree > 0) degrees.set(table.values[code] as string, degree)
  })
  const firsts = orderedUnique ? undefined : firstOfEachPair(pairs.source, pairs.target, table.values.length)
  const columns = ['description', 'weight', 'text_unit_ids'].map((name) => table.columns.get(name)!)
  const [description, weight, textUnits] = columns
  const length = firsts?.length ?? table.length
  const slice = (start = 0, end = length): RelationshipRow[] => {
    const rows: RelationshipRow[] = []
    for (let k = start; k < Math.min(end, length); k++) {
      const i = firsts === undefined ? k : firsts[k]!
      const [s, t] = [pairs.source[i]!, pairs.target[i]!]
      const [source, target] = [table.values[s] as string, table.values[t] as string]
      rows.push({
        id: relationshipId(source, target),
        human_readable_id: k,
        source,
        target,
        description: valueAt(table, description!, i) as string,
        weight: valueAt(table, weight!, i) as number,
        combined_degree: counts[s]! + counts[t]!,
        text_unit_ids: valueAt(table, textUnits!, i) as string[],
      })
    }
    return rows
  }
  return { rows: { length, slice }, degrees }
}

/** The rows that are the first of their directed pair (source, target), in table order. */
function firstOfEachPair(source: Int32Array, target: Int32Array, codes: number): Int32Array {
  const seen = new Set<number>()
  const firsts: number[] = []
  for (let i = 0; i < source.length; i++) {
    const key = source[i]! * codes + target[i]!
    if (seen.has(key)) continue
    seen.add(key)
    firsts.push(i)
  }
  return Int32Array.from(firsts)
}
