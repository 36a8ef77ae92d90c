/**
 * Accepted candidate pairs joined into groups (union-find over keys): A~B and B~C put A, B and C in one
 * entity. Each key maps to the smallest key of its group, so the mapping does not depend on pair order.
 */
import type { CandidatePair } from './candidates.js'

export function keyMerges(pairs: readonly Pick<CandidatePair, 'a' | 'b'>[]): Map<string, string> {
  const parent = new Map<string, string>()
  const find = (k: string): string => {
    let root = k
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!
    // Path compression: later finds of this chain take one step.
    let cur = k
    while (cur !== root) {
      const next = parent.get(cur)!
      parent.set(cur, root)
      cur = next
    }
    return root
  }
  for (const { a, b } of pairs) {
    const ra = find(a)
    const rb = find(b)
    if (ra === rb) continue
    // The smaller key becomes the root, so the result is the same in any pair order.
    if (ra < rb) parent.set(rb, ra)
    else parent.set(ra, rb)
    parent.set(ra < rb ? ra : rb, ra < rb ? ra : rb)
  }
  const merges = new Map<string, string>()
  for (const k of parent.keys()) {
    const root = find(k)
    if (root !== k) merges.set(k, root)
  }
  return merges
}
