/**
 * Retrieval metrics, offline (no judge): evidence recall@k and reciprocal rank of the gold evidence
 * among a method's ranked passages, and the share of the gold answer's content words present in the
 * context text. Pure functions; docs/eval.md defines each.
 */

/** One ranked item of a method's context: a text unit's (or report's) text and the titles of its documents. */
export interface RetrievedPassage {
  text: string
  /** A text unit's document; a community report's: those of its community's text units; none for an external passage. */
  documents: readonly string[]
}

/** Words that carry no content of an answer ("the", "was", …); numbers and names always count. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have he her hers him his how i ' +
    'if in into is it its me my no not of on or our she so than that the their them then there these they this ' +
    'those to us was we were what when where which while who whom whose why will with would you your'
  ).split(' '),
)

/** Lower case, Unicode compatibility forms folded, curly quotes and dashes made plain, whitespace collapsed. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’ʼ`]/gu, "'")
    .replace(/[“”]/gu, '"')
    .replace(/[‐‑‒–—]/gu, '-')
    .replace(/\s+/gu, ' ')
    .trim()
}

/** The distinct content words of a text: letter/digit runs, minus stopwords and single letters. */
export function contentTokens(text: string): Set<string> {
  const words = normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? []
  return new Set(words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w))))
}

/** A title without its folder and extension: `stave/01-Marley.txt` → `01-marley`. */
function withoutExtension(title: string): string {
  return (normalizeText(title).split('/').pop() ?? '').replace(/\.[a-z0-9]{1,5}$/, '')
}

/** Whether gold evidence names a document: its file name or title, with or without folder and extension. */
function namesDocument(evidence: string, title: string): boolean {
  const key = withoutExtension(title)
  return normalizeText(evidence) === key || withoutExtension(evidence) === key
}

/** Evidence as searched for in a passage: normalised, and without punctuation at its ends ("…Cooperative." matches "…Cooperative and …"). */
export function quoteKey(evidence: string): string {
  return normalizeText(evidence).replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '')
}

/**
 * Whether a passage supports one gold evidence item: the evidence names one of the passage's
 * documents (title, case-insensitive, extension optional) or its text appears in the passage
 * (normalised, punctuation at its ends dropped).
 */
export function supports(passage: RetrievedPassage, evidence: string): boolean {
  const gold = quoteKey(evidence)
  if (gold === '') return false
  if (passage.documents.some((d) => namesDocument(evidence, d))) return true
  return normalizeText(passage.text).includes(gold)
}

/**
 * Share of the gold evidence items supported by at least one of the first k passages; undefined
 * when there is no gold evidence (the metric does not apply).
 */
export function evidenceRecallAtK(
  passages: readonly RetrievedPassage[],
  evidence: readonly string[],
  k: number,
): number | undefined {
  if (evidence.length === 0) return undefined
  const top = passages.slice(0, k)
  const found = evidence.filter((e) => top.some((p) => supports(p, e)))
  return found.length / evidence.length
}

/** 1 / rank of the first passage supporting any gold evidence item, 0 when none does; undefined without evidence. */
export function reciprocalRank(passages: readonly RetrievedPassage[], evidence: readonly string[]): number | undefined {
  if (evidence.length === 0) return undefined
  const at = passages.findIndex((p) => evidence.some((e) => supports(p, e)))
  return at < 0 ? 0 : 1 / (at + 1)
}

/**
 * Share of the gold answer's content words found in the context text; undefined when the gold
 * answer is absent or has no content word.
 */
export function answerTokenRecall(goldAnswer: string | undefined, contextText: string): number | undefined {
  if (goldAnswer === undefined) return undefined
  const gold = contentTokens(goldAnswer)
  if (gold.size === 0) return undefined
  const context = contentTokens(contextText)
  let found = 0
  for (const token of gold) if (context.has(token)) found += 1
  return found / gold.size
}
