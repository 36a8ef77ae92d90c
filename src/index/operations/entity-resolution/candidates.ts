/**
 * Candidate pairs for merging beyond equal keys (docs/entity-resolution.md): names whose keys are
 * close by edit distance, or whose embeddings are close. Only names of compatible types are paired.
 * Pure and deterministic: pairs come out most similar first, ties in key order.
 */
import { editSimilarity } from '../../../text/edit-distance.js'

/** The entities sharing one key, as resolution sees them. */
export interface NameGroup {
  readonly key: string
  /** The spelling the group keeps. */
  readonly title: string
  readonly type: string
}

export interface CandidatePair {
  /** Keys, a < b. */
  readonly a: string
  readonly b: string
  readonly similarity: number
  readonly via: 'fuzzy' | 'embedding'
}

/** Types pair when equal (case aside) or when either is unknown. */
export function typesCompatible(a: string, b: string): boolean {
  return a === '' || b === '' || a.toUpperCase() === b.toUpperCase()
}

const byKey = (a: NameGroup, b: NameGroup) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

/** Most similar first; equal similarity in key order, so the cap cuts the same pairs every run. */
export function rankPairs(pairs: readonly CandidatePair[]): CandidatePair[] {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
  return [...pairs].sort((p, q) => q.similarity - p.similarity || cmp(p.a, q.a) || cmp(p.b, q.b))
}

function pair(x: NameGroup, y: NameGroup, similarity: number, via: CandidatePair['via']): CandidatePair {
  return x.key < y.key ? { a: x.key, b: y.key, similarity, via } : { a: y.key, b: x.key, similarity, via }
}

/** A block is skipped when this many names share its prefix: comparing them all would be quadratic. */
const MAX_BLOCK = 400

/**
 * Names sharing a word's first four letters are compared ("cooperative" and "cooperativ" share
 * "coop"); a typo inside the first four letters of every word is not found, by design of the block.
 */
function blocks(groups: readonly NameGroup[], minLength: number): NameGroup[][] {
  const byPrefix = new Map<string, NameGroup[]>()
  for (const g of groups) {
    if (g.key.length < minLength) continue
    const prefixes = new Set(
      g.key
        .split(' ')
        .filter((w) => w.length >= 4)
        .map((w) => w.slice(0, 4)),
    )
    for (const p of prefixes) {
      const block = byPrefix.get(p)
      if (block === undefined) byPrefix.set(p, [g])
      else block.push(g)
    }
  }
  return [...byPrefix.values()].filter((b) => b.length > 1 && b.length <= MAX_BLOCK)
}

export function fuzzyCandidates(
  groups: readonly NameGroup[],
  options: { threshold: number; minLength: number },
): CandidatePair[] {
  const found = new Map<string, CandidatePair>()
  for (const block of blocks(groups, options.minLength)) {
    const sorted = [...block].sort(byKey)
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const x = sorted[i]!
        const y = sorted[j]!
        if (found.has(`${x.key}\u0000${y.key}`) || !typesCompatible(x.type, y.type)) continue
        const similarity = editSimilarity(x.key, y.key, options.threshold)
        if (similarity >= options.threshold) found.set(`${x.key}\u0000${y.key}`, pair(x, y, similarity, 'fuzzy'))
      }
    }
  }
  return rankPairs([...found.values()])
}

/** The text embedded for a name: its spelling and, when known, its type. */
export function embeddingText(group: NameGroup): string {
  return group.type === '' ? group.title : `${group.title} (${group.type.toLowerCase()})`
}

function unitVector(v: readonly number[]): Float32Array {
  const out = Float32Array.from(v)
  const norm = Math.sqrt(dot(out, out))
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm
  return out
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/** Names of one type bucket; unknown types join every bucket they are compatible with. */
function typeBuckets(groups: readonly NameGroup[]): NameGroup[][] {
  const typed = new Map<string, NameGroup[]>()
  const untyped = groups.filter((g) => g.type === '')
  for (const g of groups) {
    if (g.type === '') continue
    const t = g.type.toUpperCase()
    const bucket = typed.get(t)
    if (bucket === undefined) typed.set(t, [g])
    else bucket.push(g)
  }
  if (typed.size === 0) return [untyped]
  return [...typed.values()].map((b) => [...b, ...untyped])
}

/**
 * Pairs whose name embeddings reach `threshold` (cosine). `vectors` maps a key to its embedding.
 * A bucket larger than `maxNames` is skipped and its type returned in `skipped`.
 */
export function embeddingCandidates(
  groups: readonly NameGroup[],
  vectors: ReadonlyMap<string, readonly number[]>,
  options: { threshold: number; maxNames: number },
): { pairs: CandidatePair[]; skipped: string[] } {
  const units = new Map([...vectors].map(([k, v]) => [k, unitVector(v)]))
  const found = new Map<string, CandidatePair>()
  const skipped: string[] = []
  for (const bucket of typeBuckets(groups)) {
    if (bucket.length > options.maxNames) {
      skipped.push(bucket.find((g) => g.type !== '')?.type ?? '(untyped)')
      continue
    }
    const sorted = [...bucket].sort(byKey)
    for (let i = 0; i < sorted.length; i++) {
      const vi = units.get(sorted[i]!.key)
      if (vi === undefined || vi.length === 0) continue
      for (let j = i + 1; j < sorted.length; j++) {
        const vj = units.get(sorted[j]!.key)
        if (vj === undefined || vj.length !== vi.length) continue
        const similarity = dot(vi, vj)
        const id = `${sorted[i]!.key}\u0000${sorted[j]!.key}`
        if (similarity >= options.threshold && !found.has(id))
          found.set(id, pair(sorted[i]!, sorted[j]!, similarity, 'embedding'))
      }
    }
  }
  return { pairs: rankPairs([...found.values()]), skipped }
}
