/**
 * A report context as typed rows: what the prompt shows is rendered from them (Microsoft GraphRAG's
 * CSV sections, csv.ts), and what report reuse needs (stable-reuse.ts: the canonical form, the rows
 * an anchor records, the ids a report may cite) is read from them, never parsed back out of the text.
 */
import { type CsvValue, csvLine, sectionHead } from './csv.js'

/**
 * The tables whose rows a context shows. Sources are the text units of the fast method's SOURCES
 * contexts; Reports the substituted sub-community reports of an over-budget parent.
 */
export type ContextTable = 'Entities' | 'Claims' | 'Relationships' | 'Sources' | 'Reports'

export interface ContextRow {
  table: ContextTable
  /** The first column: the row's human_readable_id (a substituted report: its community number). */
  id: number
  /**
   * What names the row in every index generation, whatever its id: an entity's title, a
   * relationship's `source\0target`, a claim's or text unit's id. Empty for a substituted report,
   * which is named by what it says.
   */
  identity: string
  /** The columns after the id, up to a trailing degree. */
  fields: readonly CsvValue[]
  /**
   * The last column of entities (degree), relationships (combined_degree) and text units
   * (entity_degree): how connected a row is in the whole graph, not what the community holds.
   */
  degree?: number
}

/** One `-----label-----` CSV section of a context, its rows in prompt order. */
export interface ContextSection {
  label: string
  columns: readonly string[]
  rows: readonly ContextRow[]
}

/** A row as its CSV line (with `\n`). */
export function renderRow(row: ContextRow): string {
  return csvLine(row.degree === undefined ? [row.id, ...row.fields] : [row.id, ...row.fields, row.degree])
}

/** Non-empty context parts joined the way sections are joined: by a blank line. */
export function joinParts(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('\n\n')
}

/** A section's text: its title and header lines, then its rows ('' for a section without rows). */
export function renderContextSection(section: ContextSection, lines: readonly string[] = section.rows.map(renderRow)) {
  return lines.length === 0 ? '' : sectionHead(section.label, section.columns) + lines.join('')
}

/** The prompt text of a context: its non-empty sections joined by blank lines. */
export function renderContext(sections: readonly ContextSection[]): string {
  return joinParts(...sections.map((s) => renderContextSection(s)))
}

/** A rendered context: the text the prompt holds, the rows it was rendered from, and its token count. */
export interface RenderedContext {
  text: string
  tokens: number
  sections: ContextSection[]
}
