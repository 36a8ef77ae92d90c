/**
 * Gold evidence that no text unit of an index supports, by document name or quote: no method can
 * recall it (a quote that is not verbatim, or that spans two text units). Said before the scores,
 * so a low recall is not read as a bad method.
 */
import type { Corpus } from './corpus.js'
import { normalizeText, quoteKey, supports } from './metrics/retrieval.js'
import type { EvalQuestion } from './questions.js'

export interface UnreachableEvidence {
  questionId: string
  evidence: string
}

export function unreachableEvidence(questions: readonly EvalQuestion[], corpus: Corpus): UnreachableEvidence[] {
  // Each unit's text is normalised once, not once per evidence item.
  const texts = corpus.units.map((u) => normalizeText(u.text))
  const documents = [...new Set(corpus.units.map((u) => u.document))]
  const reachable = (evidence: string): boolean => {
    if (documents.some((d) => supports({ text: '', documents: [d] }, evidence))) return true
    const quote = quoteKey(evidence)
    return quote !== '' && texts.some((t) => t.includes(quote))
  }
  return questions.flatMap((q) =>
    q.evidence.filter((e) => !reachable(e)).map((evidence) => ({ questionId: q.id, evidence })),
  )
}
