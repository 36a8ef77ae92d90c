/**
 * Finds the citations in an answer: GraphRAG's `[Data: Sources (1, 2); Entities (3, +more)]`,
 * hybrid search's `[S1]` labels and the offline answers' `(Source 12)`, and splits the text around them so each can be drawn as a link.
 */

export interface Citation {
  /** The context table the id is in (`sources`, `entities`, `reports`, ...), or `hybrid` for an `[S1]` label. */
  table: string
  id: string
  /** What the link reads, e.g. `Sources 3` or `S1`. */
  label: string
}

export type AnswerPart = string | Citation

const DATA_REF = /\[Data:\s*([^\]]+)\]/g
const HYBRID_REF = /\[(S\d+)\]/g
const SOURCE_REF = /\(Source (\d+)\)/g

/** The answer as text pieces and citations in reading order. */
export function splitCitations(answer: string): AnswerPart[] {
  const parts: AnswerPart[] = []
  let at = 0
  for (const match of matches(answer)) {
    if (match.index > at) parts.push(answer.slice(at, match.index))
    parts.push(...match.citations)
    at = match.index + match.length
  }
  if (at < answer.length) parts.push(answer.slice(at))
  return parts
}

function matches(answer: string): { index: number; length: number; citations: Citation[] }[] {
  const found = [
    ...[...answer.matchAll(DATA_REF)].map((m) => ({ index: m.index, length: m[0].length, citations: dataRefs(m[1]!) })),
    ...[...answer.matchAll(HYBRID_REF)].map((m) => ({
      index: m.index,
      length: m[0].length,
      citations: [{ table: 'hybrid', id: m[1]!, label: m[1]! }],
    })),
    ...[...answer.matchAll(SOURCE_REF)].map((m) => ({
      index: m.index,
      length: m[0].length,
      citations: [{ table: 'sources', id: m[1]!, label: `Source ${m[1]!}` }],
    })),
  ]
  return found.sort((a, b) => a.index - b.index)
}

/** `Sources (1, 2); Entities (3, +more)` → one citation per id (`+more` is the model saying it cut the list). */
function dataRefs(body: string): Citation[] {
  const out: Citation[] = []
  for (const group of body.matchAll(/([A-Za-z ]+?)\s*\(([^)]*)\)/g)) {
    const name = group[1]!.trim()
    for (const raw of group[2]!.split(',')) {
      const id = raw.trim()
      if (id === '' || id.startsWith('+')) continue
      out.push({ table: name.toLowerCase(), id, label: `${name} ${id}` })
    }
  }
  return out
}
