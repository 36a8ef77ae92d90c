/**
 * The answer's `[Data: Sources (…)]` citations, resolved to text units: the labels are the units'
 * human-readable ids, as basic and local search cite them. A label that names no unit given to the
 * answer is reported, never silently kept.
 */

interface LazyCitation {
  /** The label as cited (a human-readable id). */
  label: string
  /** The text unit's id. */
  id: string
}

export interface CitationCheck {
  /** Resolved citations in order of first appearance. */
  cited: LazyCitation[]
  /** Labels cited that name no unit of the context. */
  unknown: string[]
}

// `[Data: Sources (3, 7, +more)]`, also inside a longer `[Data: Entities (1); Sources (2)]`.
const SOURCES = /Sources\s*\(([^)]*)\)/g
const DATA = /\[Data:[^\]]*\]/g

/** The labels cited as Sources in `answer`, in order, repeats removed, `+more` left out. */
export function citedSourceLabels(answer: string): string[] {
  const labels: string[] = []
  for (const data of answer.matchAll(DATA)) {
    for (const m of data[0].matchAll(SOURCES)) {
      for (const part of m[1]!.split(',')) {
        const label = part.trim()
        if (label !== '' && !label.startsWith('+') && !labels.includes(label)) labels.push(label)
      }
    }
  }
  return labels
}

/** Resolves the answer's citations against the units given to it (label → unit id). */
export function checkLazyCitations(answer: string, given: ReadonlyMap<string, string>): CitationCheck {
  const cited: LazyCitation[] = []
  const unknown: string[] = []
  for (const label of citedSourceLabels(answer)) {
    const id = given.get(label)
    if (id === undefined) unknown.push(label)
    else cited.push({ label, id })
  }
  return { cited, unknown }
}
