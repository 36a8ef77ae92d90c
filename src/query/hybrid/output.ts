/** `graphrag query --method hybrid` input and output: the --context file, and the answer with references and warnings (or --json). */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { QueryError } from '../../errors.js'
import type { SearchResult } from '../index.js'
import { queryResponseJson, type QueryWarning } from '../response-json.js'
import type { ExternalPassage, HybridSource } from './context.js'

interface Output {
  write(text: string): unknown
}

/**
 * Passages from outside the index: a list of strings or of {id, text}; strings get the ids
 * external-1, external-2, … The --context file and the server's `context` field both come here;
 * `fail` words the error for its caller (item index, or undefined for the list itself).
 */
export function externalPassages(
  value: unknown,
  fail: (at: number | undefined, detail: string) => Error,
): ExternalPassage[] {
  if (!Array.isArray(value)) throw fail(undefined, 'expected a JSON list of strings or of {"id", "text"} objects')
  return value.map((item: unknown, i) => {
    if (typeof item === 'string') return { id: `external-${i + 1}`, text: item }
    const o = item as { id?: unknown; text?: unknown } | null
    if (
      o !== null &&
      typeof o === 'object' &&
      typeof o.text === 'string' &&
      (o.id === undefined || typeof o.id === 'string' || typeof o.id === 'number')
    ) {
      return { id: o.id === undefined ? `external-${i + 1}` : String(o.id), text: o.text }
    }
    throw fail(i, 'must be a string or an object with a string "text" (and an optional "id")')
  })
}

/** Reads the --context file: a JSON list of passages (see externalPassages). */
export async function readExternalContext(file: string): Promise<ExternalPassage[]> {
  const path = resolve(file)
  let value: unknown
  try {
    value = JSON.parse(await readFile(path, 'utf8'))
  } catch (cause) {
    throw new QueryError(`cannot read the --context file ${path} as JSON`, { cause })
  }
  return externalPassages(
    value,
    (at, detail) => new QueryError(`${path}: ${at === undefined ? '' : `item ${at} `}${detail}`),
  )
}

/** How the text output names a source: its label and what a person knows it by, never the 128-hex id. */
function readableSource(source: HybridSource | undefined, label: string): string {
  if (source === undefined) return `[${label}]`
  if (source.kind === 'external') return `[${label}] external passage ${source.id}`
  if (source.kind === 'community_report') return `[${label}] community report "${source.title ?? source.id}"`
  return `[${label}] ${source.title ?? 'text unit'}`
}

const WARNING_LABELS: Record<string, string> = {
  unused_sources: 'given but not cited',
  unknown_citation: 'cited labels that were never given',
  unreferenced_numeric: 'sentences with a number or year and no citation',
  embedding_failed: 'question embedding failed',
  bm25_unavailable: 'full-text (BM25) search unavailable',
  no_entities_matched: 'no question entity found in the graph',
  entity_extraction_failed: 'question entity extraction failed',
  search: 'note',
}

/**
 * One line per kind of warning, sources by their readable label: twelve unused sources are one
 * line, not twelve lines of ids (`query --json` keeps every warning with full ids).
 */
function summariseWarnings(warnings: readonly QueryWarning[], sources: readonly HybridSource[]): string[] {
  const byLabel = new Map(sources.map((s) => [s.label, s]))
  const groups = new Map<string, string[]>()
  for (const w of warnings) {
    const label = w.type === 'unused_sources' ? /^(S\d+)\b/.exec(w.detail)?.[1] : undefined
    const item = label === undefined ? w.detail : readableSource(byLabel.get(label), label)
    groups.set(w.type, [...(groups.get(w.type) ?? []), item])
  }
  return [...groups].map(([type, items]) => {
    const shown = type === 'unreferenced_numeric' ? items.map((i) => `"${clip(i, 80)}"`) : items
    const listed = shown.length > 6 ? [...shown.slice(0, 6), `and ${shown.length - 6} more`] : shown
    return `${WARNING_LABELS[type] ?? type} (${items.length}): ${listed.join(type === 'unreferenced_numeric' ? ' ' : ', ')}`
  })
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

export function writeHybrid(
  result: SearchResult,
  flags: { json: boolean; explain?: boolean },
  streamed: boolean,
  stdout: Output,
): void {
  const h = result.hybrid!
  if (flags.json) {
    stdout.write(`${JSON.stringify(queryResponseJson(result, { explain: flags.explain === true }), null, 2)}\n`)
    return
  }
  const lines: string[] = []
  if (!streamed) lines.push(result.response.replace(/\n+$/, ''))
  const byLabel = new Map(h.sources.map((s) => [s.label, s]))
  if (h.answered) {
    lines.push('', 'References:')
    if (h.references.length === 0) lines.push('  (none cited)')
    for (const r of h.references) {
      const source = byLabel.get(r.label)
      lines.push(`  ${readableSource(source, r.label)}${source === undefined ? '' : ` (${source.reason})`}`)
    }
  }
  const warnings = summariseWarnings(h.warnings, h.sources)
  if (warnings.length > 0) {
    lines.push('', 'Warnings (full details: --json):')
    for (const w of warnings) lines.push(`  ${w}`)
  }
  stdout.write(`${streamed ? '\n' : ''}${lines.join('\n')}\n`)
}
