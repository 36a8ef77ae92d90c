/**
 * A text's sentences that share most words with a topic, in text order, up to a token budget; a
 * text without such a sentence shows its start. Lazy search's relevance tests and claim step read
 * a text unit this way against the sub-question (judging a few sentences instead of a whole unit
 * of about 1,200 tokens is what keeps a test cheap), the fast method's model-written reports
 * against the community's member names.
 */

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []) as string[])

export function topicalExcerpt(
  text: string,
  topic: string,
  maxTokens: number,
  countTokens: (text: string) => number,
): string {
  return topicalSentences(text, topic, maxTokens, countTokens).join(' … ')
}

/** The sentences topicalExcerpt keeps, in text order (lazy search's relevance tests judge them one by one). */
export function topicalSentences(
  text: string,
  topic: string,
  maxTokens: number,
  countTokens: (text: string) => number,
): string[] {
  const asked = words(topic)
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
  return kept.sort((a, b) => a.at - b.at).map((x) => x.s.trim())
}
