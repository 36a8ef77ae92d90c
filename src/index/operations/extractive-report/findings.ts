/** Findings of an extractive report: one per strong relationship (or central entity), each quoting its best supporting sentence. */
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import type { ReportFinding } from '../community-reports/render.js'
import type { Sentence } from './corpus.js'
import { displayName, plural, sourcesReference } from './text.js'

export interface FindingContext {
  /** The community's candidate sentences, best first. */
  readonly ranked: readonly Sentence[]
  /** Sentence texts already quoted (the summary's included); reused only when nothing else fits. */
  readonly used: Set<string>
  readonly unitNumber: ReadonlyMap<string, number>
  readonly delimiter: string
}

/** The best-ranked sentence satisfying `test`, preferring one not quoted yet; marks it used. */
function support(context: FindingContext, test: (s: Sentence) => boolean): Sentence | undefined {
  const fresh = context.ranked.find((s) => test(s) && !context.used.has(s.text))
  const found = fresh ?? context.ranked.find(test)
  if (found) context.used.add(found.text)
  return found
}

function unitNumbers(context: FindingContext, unitIds: readonly string[]): number[] {
  const numbers = [...new Set(unitIds)].flatMap((id) => context.unitNumber.get(id) ?? [])
  return numbers.sort((a, b) => a - b)
}

function quote(sentence: Sentence | undefined, context: FindingContext): string {
  if (sentence === undefined) return ''
  return `\n\nA supporting passage: "${sentence.text}"${sourcesReference(unitNumbers(context, [sentence.unitId]))}`
}

export function relationshipFinding(
  r: Pick<RelationshipRow, 'source' | 'target' | 'weight' | 'text_unit_ids'>,
  context: FindingContext,
): ReportFinding {
  const a = displayName(r.source, context.delimiter)
  const b = displayName(r.target, context.delimiter)
  const both = support(context, (s) => s.mentions.includes(r.source) && s.mentions.includes(r.target))
  const either = both ?? support(context, (s) => s.mentions.includes(r.source) || s.mentions.includes(r.target))
  const units = unitNumbers(context, r.text_unit_ids)
  const together = plural(new Set(r.text_unit_ids).size, 'text unit')
  return {
    summary: `${a} and ${b} appear together`,
    explanation: `${a} and ${b} co-occur in ${together} (association weight ${r.weight.toFixed(4)})${sourcesReference(units)}.${quote(either, context)}`,
  }
}

export function entityFinding(
  e: Pick<EntityRow, 'title' | 'degree' | 'frequency'>,
  context: FindingContext,
): ReportFinding {
  const name = displayName(e.title, context.delimiter)
  const sentence = support(context, (s) => s.mentions.includes(e.title))
  return {
    summary: `${name} is central to this community`,
    explanation: `${name} is linked to ${plural(e.degree, 'other phrase')} and appears in ${plural(e.frequency, 'text unit')}.${quote(sentence, context)}`,
  }
}
