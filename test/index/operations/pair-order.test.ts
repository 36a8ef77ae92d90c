// leadingPairsOutOfOrder: a quick "not ordered and unique" that must never contradict the full check
// (orderedUniqueCodes), and must catch a disorder among the leading pairs whatever its kind.
import { describe, expect, it } from 'vitest'
import { leadingPairsOutOfOrder } from '../../../src/index/operations/pair-order.js'
import { orderedUniqueCodes } from '../../../src/index/operations/prune-codes.js'

/** Pairs over `titles` given as [source, target] title strings (codes are their indexes). */
function pairsOf(titles: string[], pairs: [string, string][]) {
  const codeOf = new Map(titles.map((t, i) => [t, i]))
  return {
    titles,
    source: Int32Array.from(pairs, ([s]) => codeOf.get(s)!),
    target: Int32Array.from(pairs, ([, t]) => codeOf.get(t)!),
  }
}

const TITLES = ['B', 'A', 'D', 'C', 'E', 'a', '\uFF21', '\u{1F600}', 'AB']

/** Every ordered unique list of pairs: sorted (source, target) with source < target. */
function orderedPairs(titles: string[]): [string, string][] {
  const sorted = [...titles].sort()
  const out: [string, string][] = []
  for (const s of sorted) for (const t of sorted) if (s < t) out.push([s, t])
  return out
}

describe('leadingPairsOutOfOrder', () => {
  it('says nothing of ordered unique pairs, which the full check accepts', () => {
    const all = orderedPairs(TITLES)
    for (let keep = 0; keep <= all.length; keep++) {
      const pairs = pairsOf(TITLES, all.filter((_, i) => i % 3 !== keep % 3).slice(0, keep))
      expect(orderedUniqueCodes(pairs)).toBe(true)
      expect(leadingPairsOutOfOrder(pairs)).toBe(false)
    }
  })

  it('catches a reversed pair, a repeated pair, a self-loop and a step back among the leading pairs', () => {
    const ordered = orderedPairs(TITLES).slice(0, 20)
    const cases: [string, [string, string][]][] = [
      ['reversed', ordered.map((p, i) => (i === 7 ? [p[1], p[0]] : p))],
      ['repeated', [...ordered.slice(0, 8), ordered[7]!, ...ordered.slice(8)]],
      ['self-loop', [...ordered.slice(0, 5), ['C', 'C'], ...ordered.slice(5)]],
      // The last pair: no step back after it gives it away.
      ['self-loop last', [...ordered.slice(0, 5), ['C', 'C']]],
      [
        'reversed last',
        [
          ['A', 'B'],
          ['D', 'C'],
        ],
      ],
      ['step back', [...ordered.slice(0, 9), ordered[2]!, ...ordered.slice(9)].filter((_, i) => i !== 2)],
      [
        'same source, lower target',
        [
          ['A', 'C'],
          ['A', 'B'],
        ],
      ],
    ]
    for (const [name, list] of cases) {
      const pairs = pairsOf(TITLES, list)
      expect(orderedUniqueCodes(pairs), name).toBe(false)
      expect(leadingPairsOutOfOrder(pairs), name).toBe(true)
    }
  })

  it('never contradicts the full check on shuffled and partly ordered lists', () => {
    let state = 7
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648
      return state / 2147483648
    }
    const ordered = orderedPairs(TITLES)
    for (let run = 0; run < 300; run++) {
      const list = ordered.filter(() => next() < 0.7)
      // Disorder past the leading pairs is the full check's to find.
      const swaps = Math.floor(next() * 3)
      for (let k = 0; k < swaps; k++) {
        const [i, j] = [Math.floor(next() * list.length), Math.floor(next() * list.length)]
        ;[list[i], list[j]] = [list[j]!, list[i]!]
      }
      const pairs = pairsOf(TITLES, list)
      if (leadingPairsOutOfOrder(pairs)) expect(orderedUniqueCodes(pairs)).toBe(false)
      else if (list.length <= 64) expect(orderedUniqueCodes(pairs)).toBe(true)
    }
  })
})
