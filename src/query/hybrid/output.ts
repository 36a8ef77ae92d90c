/** `graphrag query --method hybrid` input and output: the --context file, and the answer with references and warnings (or --json). */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { QueryError } from '../../errors.js'
import type { SearchResult } from '../index.js'
import type { HybridWarning } from './citations.js'
import type { ExternalPassage } from './context.js'

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

/** The --json response of hybrid search; `ranking` is added with --explain. */
export function hybridJson(result: SearchResult, explain: boolean): Record<string, unknown> {
  const h = result.hybrid!
  return {
    answer: result.response,
    sources: h.sources,
    references: h.references,
    entities: h.entities,
    warnings: h.warnings,
    usage: result.usage,
    ...(explain ? { ranking: h.ranking, degraded: isDegraded(h.warnings) } : {}),
  }
}

/** Warnings that mean a ranking signal was missing (no question vector, no BM25 index, no graph entity to start from). */
const SIGNAL_LOST: ReadonlySet<HybridWarning['type']> = new Set([
  'embedding_failed',
  'bm25_unavailable',
  'no_entities_matched',
])

/** True when the ranking was made without one of its signals (the seed API's `degraded`). */
export function isDegraded(warnings: readonly HybridWarning[]): boolean {
  return warnings.some((w) => SIGNAL_LOST.has(w.type))
}

export function writeHybrid(
  result: SearchResult,
  flags: { json: boolean; explain?: boolean },
  streamed: boolean,
  stdout: Output,
): void {
  const h = result.hybrid!
  if (flags.json) {
    stdout.write(`${JSON.stringify(hybridJson(result, flags.explain === true), null, 2)}\n`)
    return
  }
  const lines: string[] = []
  if (!streamed) lines.push(result.response.replace(/\n+$/, ''))
  if (h.answered) {
    lines.push('', 'References:')
    if (h.references.length === 0) lines.push('  (none cited)')
    const byLabel = new Map(h.sources.map((s) => [s.label, s]))
    for (const r of h.references)
      lines.push(
        `  [${r.label}] ${byLabel.get(r.label)?.kind ?? 'source'} ${r.id} (${byLabel.get(r.label)?.reason ?? ''})`,
      )
  }
  if (h.warnings.length > 0) {
    lines.push('', 'Warnings:')
    for (const w of h.warnings) lines.push(`  ${w.type}: ${w.detail}`)
  }
  stdout.write(`${streamed ? '\n' : ''}${lines.join('\n')}\n`)
}
