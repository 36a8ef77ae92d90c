/**
 * create_communities steps 6–7 on RelationshipColumns: per community, the relationships whose source
 * and target (raw names, as the reference joins them) both belong to it at its level, with their
 * ids and text-unit ids each sorted in code-point order without repeats. A level is one pass that
 * counts each community's rows and one that places them (no list per community grown row by row);
 * text units are ranks marked once per community.
 */
import { compareCodePoints } from '../../text/names.js'
import type { Cluster } from './cluster-graph.js'
import type { RelationshipColumns } from './relationship-columns.js'

export interface Links {
  /** Sorted, distinct. */
  readonly relationshipIds: string[]
  /** Sorted, distinct. */
  readonly textUnitIds: string[]
}

/** Community number → its internal relationships (communities without one are absent). */
export function internalRelationships(
  clusters: ReadonlyArray<Cluster>,
  relationships: RelationshipColumns,
): Map<number, Links> {
  const rankOf = new Map(relationships.names.map((name, i) => [name, i]))
  const byIdOrder = codePointOrder(relationships.ids)
  const idRank = new Int32Array(byIdOrder.length)
  for (let k = 0; k < byIdOrder.length; k++) idRank[byIdOrder[k]] = k
  const units = new UnitMarks(relationships)
  const out = new Map<number, Links>()
  for (const level of byLevel(clusters)) {
    const slotOf = new Int32Array(relationships.names.length).fill(-1)
    level.forEach((c, slot) => {
      for (const node of c.nodes) {
        const rank = rankOf.get(node)
        if (rank !== undefined) slotOf[rank] = slot
      }
    })
    const grouped = groupInternalRows(relationships, slotOf, level.length)
    for (let slot = 0; slot < level.length; slot++) {
      const rows = grouped.rows.subarray(grouped.start[slot], grouped.start[slot + 1])
      if (rows.length === 0) continue
      const relationshipIds = distinctInOrder(rows.map((i) => idRank[i]).sort(), (k) => relationships.ids[byIdOrder[k]])
      out.set(level[slot].cluster, { relationshipIds, textUnitIds: units.distinct(rows) })
    }
  }
  return out
}

/** Clusters grouped by level, levels in order of first appearance, each in its given order. */
function byLevel(clusters: ReadonlyArray<Cluster>): Cluster[][] {
  const levels = new Map<number, Cluster[]>()
  for (const c of clusters) {
    const level = levels.get(c.level)
    if (level) level.push(c)
    else levels.set(c.level, [c])
  }
  return [...levels.values()]
}

/** Rows with both ends in one slot, grouped by slot (rows of a slot in table order). */
function groupInternalRows(
  { source, target, length }: RelationshipColumns,
  slotOf: Int32Array,
  slots: number,
): { rows: Int32Array; start: Int32Array } {
  const slotOfRow = (i: number): number => {
    const slot = slotOf[source[i]]
    return slot >= 0 && slotOf[target[i]] === slot ? slot : -1
  }
  const start = new Int32Array(slots + 1)
  for (let i = 0; i < length; i++) {
    const slot = slotOfRow(i)
    if (slot >= 0) start[slot + 1]++
  }
  for (let s = 0; s < slots; s++) start[s + 1] += start[s]
  const fill = start.slice(0, slots)
  const rows = new Int32Array(start[slots])
  for (let i = 0; i < length; i++) {
    const slot = slotOfRow(i)
    if (slot >= 0) rows[fill[slot]++] = i
  }
  return { rows, start }
}

/** Positions of `values` in code-point order of the values (equal values in table order). */
function codePointOrder(values: readonly string[]): Int32Array {
  const order = Array.from(values, (_, i) => i).sort((a, b) => compareCodePoints(values[a], values[b]) || a - b)
  return Int32Array.from(order)
}

/** The values of sorted ranks, a value equal to the one before it left out. */
function distinctInOrder(sortedRanks: Int32Array, stringOf: (rank: number) => string): string[] {
  const out: string[] = []
  for (const rank of sortedRanks) {
    const value = stringOf(rank)
    if (out.length === 0 || out[out.length - 1] !== value) out.push(value)
  }
  return out
}

/** The distinct text units of a set of rows, each unit marked with the set's stamp once. */
class UnitMarks {
  private readonly stamp: Int32Array
  private current = 0

  constructor(private readonly relationships: RelationshipColumns) {
    this.stamp = new Int32Array(relationships.unitNames.length)
  }

  /** Unit ids of the rows, sorted (ranks are in code-point order), each once. */
  distinct(rows: Int32Array): string[] {
    const { unitOffsets, units, unitNames } = this.relationships
    const stamp = ++this.current
    const found: number[] = []
    for (const i of rows) {
      for (let k = unitOffsets[i]; k < unitOffsets[i + 1]; k++) {
        const unit = units[k]
        if (this.stamp[unit] === stamp) continue
        this.stamp[unit] = stamp
        found.push(unit)
      }
    }
    return Array.from(Int32Array.from(found).sort(), (unit) => unitNames[unit])
  }
}
