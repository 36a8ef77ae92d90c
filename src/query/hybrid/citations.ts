/**
 * After the answer: which `[S#]` labels it cites, and warnings about what it does not support:
 * sources given but never cited, citations of labels that were never given, and sentences that
 * state a number or year without citing anything.
 */

type WarningType =
  | 'unused_sources'
  | 'unknown_citation'
  | 'unreferenced_numeric'
  | 'embedding_failed'
  | 'bm25_unavailable'
  | 'no_entities_matched'
  | 'entity_extraction_failed'
  | 'rerank_failed'

export interface HybridWarning {
  type: WarningType
  detail: string
}

/** Warnings that mean a ranking signal was missing (no question vector, no BM25 index, no graph entity to start from). */
const SIGNAL_LOST: ReadonlySet<WarningType> = new Set(['embedding_failed', 'bm25_unavailable', 'no_entities_matched'])

/** True when the ranking was made without one of its signals (the seed API's `degraded`). */
export function isDegraded(warnings: readonly HybridWarning[]): boolean {
  return warnings.some((w) => SIGNAL_LOST.has(w.type))
}

export interface CitedReference {
  label: string
  id: string
}

export interface CitationReport {
  /** Known labels the answer cites, in order of first citation. */
  references: CitedReference[]
  warnings: HybridWarning[]
}

// `[S1]`, `[S1, S2]`, `[S1; S3]` and `[S2-S4]` (a range cites every label in it).
const CITATION = /\[\s*(S\d+(?:\s*(?:[,;]|-|–)\s*S?\d+)*)\s*\]/g
const CITATION_TEST = /\[\s*S\d+/
const NUMBER = /\d+(?:[.,]\d+)*/
const LIST_MARKER = /^(?:[-*•]|\d+[.)]|#+)\s+/

/** The labels of one bracket, in order; ranges expanded. */
function labelsOf(inner: string): string[] {
  const out: string[] = []
  for (const part of inner.split(/\s*[,;]\s*/)) {
    const range = /^S(\d+)\s*[-–]\s*S?(\d+)$/.exec(part)
    if (range === null) {
      out.push(part.trim())
      continue
    }
    const [from, to] = [Number(range[1]), Number(range[2])]
    // A reversed or huge range is a typo, not a request to cite hundreds of sources.
    if (to < from || to - from > 50) out.push(`S${from}`, `S${to}`)
    else for (let n = from; n <= to; n++) out.push(`S${n}`)
  }
  return out
}

/** Every label cited in `text`, in order of appearance (repeats kept). */
export function citedLabels(text: string): string[] {
  return [...text.matchAll(CITATION)].flatMap((m) => labelsOf(m[1]!))
}

/**
 * Sentences of the answer: lines without their list markers (`- `, `1. `, `## `), split after
 * . ! ? followed by space. A piece that is only citations (`… in 1843. [S2]`) belongs to the
 * sentence before it.
 */
export function sentences(text: string): string[] {
  const lines = text.split(/\n+/).map((line) => line.trim().replace(LIST_MARKER, ''))
  const pieces = lines
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const out: string[] = []
  for (const piece of pieces) {
    if (out.length > 0 && piece.replace(CITATION, '').trim() === '') out[out.length - 1] += ` ${piece}`
    else out.push(piece)
  }
  return out
}

/** A sentence with a figure (number or year) and no citation. */
function unreferencedNumeric(sentence: string): boolean {
  return !CITATION_TEST.test(sentence) && NUMBER.test(sentence)
}

/** Cited references and warnings of `answer`, given the labels of the context (label → source id). */
export function checkCitations(answer: string, sources: ReadonlyArray<{ label: string; id: string }>): CitationReport {
  const known = new Map(sources.map((s) => [s.label, s.id]))
  const references: CitedReference[] = []
  const seen = new Set<string>()
  const warnings: HybridWarning[] = []
  for (const label of citedLabels(answer)) {
    if (seen.has(label)) continue
    seen.add(label)
    const id = known.get(label)
    if (id !== undefined) references.push({ label, id })
    else
      warnings.push({
        type: 'unknown_citation',
        detail: `[${label}] is cited but no source has that label (given: ${rangeOf(sources)})`,
      })
  }
  for (const source of sources) {
    if (!seen.has(source.label))
      warnings.push({ type: 'unused_sources', detail: `${source.label} (${source.id}) was given but never cited` })
  }
  for (const sentence of sentences(answer)) {
    if (unreferencedNumeric(sentence)) warnings.push({ type: 'unreferenced_numeric', detail: clip(sentence) })
  }
  return { references, warnings }
}

function rangeOf(sources: ReadonlyArray<{ label: string }>): string {
  if (sources.length === 0) return 'none'
  return sources.length === 1 ? sources[0]!.label : `${sources[0]!.label}–${sources.at(-1)!.label}`
}

function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 197)}...`
}
