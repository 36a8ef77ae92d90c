/**
 * What a relevance test reads of a text unit: its sentences that share most words with the
 * sub-question, in text order, up to a token budget. Judging a few sentences instead of a whole
 * unit (about 1,200 tokens) is what keeps a test cheap; a unit without such a sentence shows its start.
 */

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []) as string[])

export function relevanceExcerpt(
  text: string,
  question: string,
  maxTokens: number,
  countTokens: (text: string) => number,
): string {
  const asked = words(question)
  const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== '')
  const scored = sentences.map((s, at) => ({ at, s, score: [...words(s)].filter((w) => asked.has(w)).length }))
  const order = scored.some((x) => x.score > 0)
    ? scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.at - b.at)
    : scored
  const kept: typeof scored = []
  let used = 0
  for (const x of order) {
    const cost = countTokens(x.s)
    if (used + cost > maxTokens) continue
    kept.push(x)
    used += cost
  }
  return kept
    .sort((a, b) => a.at - b.at)
    .map((x) => x.s.trim())
    .join(' … ')
}
