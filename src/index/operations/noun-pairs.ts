/**
 * The noun graph's co-occurrence pairs as columns (issue 42): typed arrays of phrase ranks, unit
 * indices and offsets instead of one row object (with its text-unit list) per pair. A 30 MB dense
 * corpus has ~40 M pairs; as rows they outgrew V8's heap before any table was written, as columns they
 * take ~20 bytes a pair. Rows are made only when written, one row group at a time (`pairRows`).
 */
import { compareCodePoints } from '../../text/names.js'
import type { RowSource } from '../../storage/table-store.js'
import type { TextUnitPhrases } from './noun-phrases/cached.js'

export interface NounPairs {
  /** Every distinct phrase by rank, in code-point order (comparing ranks compares phrases). */
  readonly titles: readonly string[]
  /** Text units containing each phrase (by rank): the node frequency PMI reads. */
  readonly frequency: Int32Array
  readonly unitIds: readonly string[]
  /** Pairs in (source, target) rank order, source < target; `count` of them are live (noise drops shrink it). */
  count: number
  sources: Int32Array
  targets: Int32Array
  /** Pair p's units (indices into unitIds) are units[unitStart[p]] up to units[unitStart[p + 1]]. */
  unitStart: Int32Array
  units: Int32Array
  /** Weights of pairs merged by a rename (renamePairs), by pair index: sums, not computed from counts. */
  merged: Map<number, number>
  /** The totals PMI divides by, from the whole graph as built; undefined: weights are unit counts. */
  readonly pmi: { readonly totalFrequency: number; readonly totalWeight: number } | undefined
}

/** The sorted unique phrase ranks of each unit, and the titles by rank. */
function rankedUnits(units: readonly TextUnitPhrases[]): { titles: string[]; ranks: Int32Array[] } {
  const distinct = new Set<string>()
  for (const unit of units) for (const phrase of unit.phrases) distinct.add(phrase)
  const titles = [...distinct].sort(compareCodePoints)
  const rank = new Map(titles.map((title, i) => [title, i]))
  const ranks = units.map((unit) => Int32Array.from(new Set(unit.phrases), (p) => rank.get(p)!).sort())
  return { titles, ranks }
}

/** Where each source rank's occurrences start (a counting sort's offsets; the last entry is the total). */
function sourceOffsets(ranks: readonly Int32Array[], phrases: number): Int32Array {
  const start = new Int32Array(phrases + 1)
  let total = 0
  for (const unit of ranks)
    for (let k = 0; k < unit.length; k++) {
      start[unit[k]! + 1]! += unit.length - 1 - k
      total += unit.length - 1 - k
    }
  // Offsets are 32-bit: ~2 billion co-occurrences (several GB of columns) is past what this can hold anyway.
  if (total > 2 ** 31 - 1) throw new RangeError(`noun graph too large: ${total} phrase co-occurrences (limit 2^31 - 1)`)
  for (let r = 0; r < phrases; r++) start[r + 1]! += start[r]!
  return start
}

/**
 * Every (target, unit) occurrence grouped by source, then sorted by target within the source: the unit
 * indices end up in pair order, ascending within a pair, which is the flat text-unit list as it stays.
 */
function sortedOccurrences(ranks: readonly Int32Array[], start: Int32Array) {
  const total = start[start.length - 1]!
  const targets = new Int32Array(total)
  const units = new Int32Array(total)
  const fill = start.slice(0, -1)
  for (const [u, unit] of ranks.entries())
    for (let i = 0; i < unit.length; i++)
      for (let j = i + 1; j < unit.length; j++) {
        const at = fill[unit[i]!]!++
        targets[at] = unit[j]!
        units[at] = u
      }
  // target · unitCount + unit is exact in a double (< 2^53) and sorts by target, then unit.
  const unitCount = ranks.length
  let widest = 0
  for (let s = 0; s + 1 < start.length; s++) widest = Math.max(widest, start[s + 1]! - start[s]!)
  const keys = new Float64Array(widest)
  for (let s = 0; s + 1 < start.length; s++) {
    const from = start[s]!
    const bucket = keys.subarray(0, start[s + 1]! - from)
    for (let k = 0; k < bucket.length; k++) bucket[k] = targets[from + k]! * unitCount + units[from + k]!
    bucket.sort()
    for (let k = 0; k < bucket.length; k++) {
      targets[from + k] = Math.floor(bucket[k]! / unitCount)
      units[from + k] = bucket[k]! % unitCount
    }
  }
  return { targets, units }
}

/** Pair columns from the sorted occurrences: a new pair wherever the source or the target changes. */
function pairColumns(start: Int32Array, occurrenceTargets: Int32Array) {
  const isNewPair = (s: number, k: number) => k === start[s] || occurrenceTargets[k] !== occurrenceTargets[k - 1]
  let count = 0
  for (let s = 0; s + 1 < start.length; s++)
    for (let k = start[s]!; k < start[s + 1]!; k++) if (isNewPair(s, k)) count++
  const sources = new Int32Array(count)
  const targets = new Int32Array(count)
  const unitStart = new Int32Array(count + 1)
  let p = 0
  for (let s = 0; s + 1 < start.length; s++)
    for (let k = start[s]!; k < start[s + 1]!; k++) {
      if (!isNewPair(s, k)) continue
      sources[p] = s
      targets[p] = occurrenceTargets[k]!
      unitStart[p++] = k
    }
  unitStart[count] = start[start.length - 1]!
  return { count, sources, targets, unitStart }
}

/** The pairs of every unit's sorted unique phrases, counted on integers (spec reference-index.md §5.5). */
export function buildNounPairs(units: readonly TextUnitPhrases[], normalizeEdgeWeights: boolean): NounPairs {
  const { titles, ranks } = rankedUnits(units)
  const frequency = new Int32Array(titles.length)
  for (const unit of ranks) for (const r of unit) frequency[r]!++
  const start = sourceOffsets(ranks, titles.length)
  const occurrences = sortedOccurrences(ranks, start)
  const pairs = pairColumns(start, occurrences.targets)
  const totalWeight = start[titles.length]!
  const totalFrequency = frequency.reduce((sum, f) => sum + f, 0)
  const pmi = normalizeEdgeWeights && pairs.count > 0 ? { totalFrequency, totalWeight } : undefined
  const unitIds = units.map((u) => u.id)
  return { titles, frequency, unitIds, ...pairs, units: occurrences.units, merged: new Map(), pmi }
}

/** Pair p's weight: its unit count, or `p(x,y)·log2(p(x,y) / (p(x)·p(y)))` when PMI-weighted. */
export function pairWeight(pairs: NounPairs, p: number): number {
  const merged = pairs.merged.get(p)
  if (merged !== undefined) return merged
  const weight = pairs.unitStart[p + 1]! - pairs.unitStart[p]!
  if (pairs.pmi === undefined) return weight
  const pxy = weight / pairs.pmi.totalWeight
  const px = pairs.frequency[pairs.sources[p]!]! / pairs.pmi.totalFrequency
  const py = pairs.frequency[pairs.targets[p]!]! / pairs.pmi.totalFrequency
  return pxy * Math.log2(pxy / (px * py))
}

export interface PairRow {
  source: string
  target: string
  weight: number
  text_unit_ids: string[]
  description: string
}

/** The live pairs as relationship rows, made when a slice is asked for (one row group at a time when written). */
export function pairRows(pairs: NounPairs): RowSource<PairRow> {
  return {
    length: pairs.count,
    slice(from = 0, to = pairs.count) {
      const rows: PairRow[] = []
      for (let p = Math.max(0, from); p < Math.min(to, pairs.count); p++) {
        const text_unit_ids = new Array<string>(pairs.unitStart[p + 1]! - pairs.unitStart[p]!)
        for (let i = 0; i < text_unit_ids.length; i++)
          text_unit_ids[i] = pairs.unitIds[pairs.units[pairs.unitStart[p]! + i]!]!
        const [source, target] = [pairs.titles[pairs.sources[p]!]!, pairs.titles[pairs.targets[p]!]!]
        rows.push({ source, target, weight: pairWeight(pairs, p), text_unit_ids, description: '' })
      }
      return rows
    },
  }
}

/**
 * Drops, in place, every pair with an endpoint `keep` refuses (noise), keeping the others in order;
 * returns how many went.
 */
export function keepPairs(pairs: NounPairs, keep: (rank: number) => boolean): number {
  const { sources, targets, unitStart, units } = pairs
  let live = 0
  let unitAt = 0
  for (let p = 0; p < pairs.count; p++) {
    if (!keep(sources[p]!) || !keep(targets[p]!)) continue
    const [from, to] = [unitStart[p]!, unitStart[p + 1]!]
    sources[live] = sources[p]!
    targets[live] = targets[p]!
    unitStart[live++] = unitAt
    units.copyWithin(unitAt, from, to)
    unitAt += to - from
  }
  const dropped = pairs.count - live
  unitStart[live] = unitAt
  pairs.count = live
  return dropped
}
