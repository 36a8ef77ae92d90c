/**
 * Renamed endpoints on the pair columns (noun-pairs.ts), with the result the row path gives: rewiring
 * (merge-relationships.ts) merges pairs that coincide as directed pairs (text units unioned in
 * first-seen order, weights summed in pair order), then fromRawGraph orders each pair source < target
 * and merges the two directions (the first seen taking the other). Only pairs a rename touches, and
 * the untouched pairs they land on, are merged one by one; the rest are copied in order.
 */
import { type NounPairs, pairWeight } from './noun-pairs.js'

/** One direction of a merged pair: its weight summed so far and its units in first-seen order. */
interface Half {
  readonly source: number
  weight: number
  readonly units: number[]
  readonly seen: Set<number>
}

const keyOf = (a: number, b: number, n: number) => (a < b ? a * n + b : b * n + a)

/** The undirected keys some renamed pair lands on (self-loops left out). */
function landingKeys(pairs: NounPairs, canonical: Int32Array): Set<number> {
  const keys = new Set<number>()
  const n = pairs.titles.length
  for (let p = 0; p < pairs.count; p++) {
    const [s, t] = [pairs.sources[p]!, pairs.targets[p]!]
    const [cs, ct] = [canonical[s]!, canonical[t]!]
    if ((cs !== s || ct !== t) && cs !== ct) keys.add(keyOf(cs, ct, n))
  }
  return keys
}

/** Every pair landing on `keys`, in pair order, added to its direction's half; counts the self-loops. */
function collectHalves(pairs: NounPairs, canonical: Int32Array, keys: Set<number>) {
  const halves = new Map<number, Half[]>()
  const n = pairs.titles.length
  let selfLoops = 0
  for (let p = 0; p < pairs.count; p++) {
    const [cs, ct] = [canonical[pairs.sources[p]!]!, canonical[pairs.targets[p]!]!]
    if (cs === ct) {
      selfLoops++
      continue
    }
    const key = keyOf(cs, ct, n)
    if (!keys.has(key)) continue
    let group = halves.get(key)
    if (group === undefined) halves.set(key, (group = []))
    let half = group.find((h) => h.source === cs)
    const weight = pairWeight(pairs, p)
    if (half === undefined) group.push((half = { source: cs, weight, units: [], seen: new Set() }))
    else half.weight += weight
    for (let k = pairs.unitStart[p]!; k < pairs.unitStart[p + 1]!; k++) {
      const unit = pairs.units[k]!
      if (half.seen.has(unit)) continue
      half.seen.add(unit)
      half.units.push(unit)
    }
  }
  return { halves, selfLoops }
}

/** A merged pair: the first-seen direction takes the other's weight and new units. */
function joined(group: readonly Half[]): { weight: number; units: number[] } {
  const [first, second] = group as [Half, Half | undefined]
  if (second === undefined) return first
  return {
    weight: first.weight + second.weight,
    units: [...first.units, ...second.units.filter((u) => !first.seen.has(u))],
  }
}

/**
 * Renames the live pairs' endpoints to `canonical[rank]` (a rank whose code-point order is its UTF-16
 * order) and merges what coincides; returns the self-loops dropped. The columns are replaced.
 */
export function renamePairs(pairs: NounPairs, canonical: Int32Array): number {
  const n = pairs.titles.length
  const { halves, selfLoops } = collectHalves(pairs, canonical, landingKeys(pairs, canonical))
  const keys = [...halves.keys()].sort((a, b) => a - b)
  const out = { sources: new Int32Array(pairs.count), targets: new Int32Array(pairs.count) }
  const unitStart = new Int32Array(pairs.count + 1)
  const units = new Int32Array(pairs.units.length)
  const merged = new Map<number, number>()
  let [live, unitAt, next] = [0, 0, 0]
  const emit = (source: number, target: number, list: ArrayLike<number>) => {
    out.sources[live] = source
    out.targets[live] = target
    unitStart[live++] = unitAt
    for (let i = 0; i < list.length; i++) units[unitAt++] = list[i]!
  }
  const emitMerged = (key: number) => {
    const { weight, units: list } = joined(halves.get(key)!)
    merged.set(live, weight)
    emit(Math.floor(key / n), key % n, list)
  }
  for (let p = 0; p < pairs.count; p++) {
    const [s, t] = [pairs.sources[p]!, pairs.targets[p]!]
    if (canonical[s] !== s || canonical[t] !== t) continue
    const key = s * n + t
    while (next < keys.length && keys[next]! < key) emitMerged(keys[next++]!)
    if (next < keys.length && keys[next] === key) continue
    const weight = pairWeight(pairs, p)
    if (pairs.merged.has(p)) merged.set(live, weight)
    emit(s, t, pairs.units.subarray(pairs.unitStart[p]!, pairs.unitStart[p + 1]!))
  }
  while (next < keys.length) emitMerged(keys[next++]!)
  unitStart[live] = unitAt
  Object.assign(pairs, { ...out, unitStart, units, merged, count: live })
  return selfLoops
}
