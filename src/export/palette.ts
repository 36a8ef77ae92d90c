/** Community colours: distinct hues for the largest communities, so the picture's main groups never share one. */

/** Grey for entities outside every community (e.g. outside the largest component with use_lcc). */
export const NO_COMMUNITY_COLOUR = '#a0a0a0'

// Tableau 20 reordered so the first ten are the saturated set: the ten largest communities get them.
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#17becf',
  '#a0cbe8',
  '#ffbe7d',
  '#ff9d9a',
  '#86bcb6',
  '#8cd17d',
  '#f1ce63',
  '#d4a6c8',
  '#fabfd2',
  '#d7b5a6',
  '#bcbd22',
]

/** Colour per community id, by community size (largest first, then id): deterministic for a given index. */
export function colourCommunities(communityOfEachNode: readonly number[]): Map<number, string> {
  const sizes = new Map<number, number>()
  for (const c of communityOfEachNode) if (c !== -1) sizes.set(c, (sizes.get(c) ?? 0) + 1)
  const ranked = [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])
  return new Map(ranked.map(([community], i) => [community, PALETTE[i % PALETTE.length]!]))
}
