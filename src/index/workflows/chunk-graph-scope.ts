/**
 * Seed design 002's additions to create_chunk_graph: the document scope of cross-document edges
 * (chunk_graph.cross_document_documents, ids or titles) and the fingerprint that leaves settings
 * out which cannot change the edges (workers) or are at their defaults (so older indexes resume).
 */
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import { DOCUMENTS } from '../../model/documents.js'
import type { WorkflowContext } from '../workflow.js'

/** The document ids named (by id or title); undefined when no scope is set. */
export async function documentScope(
  ctx: WorkflowContext,
  names: readonly string[] | null,
  key = 'chunk_graph.cross_document_documents',
): Promise<Set<string> | undefined> {
  if (names === null) return undefined
  const documents = (await ctx.tables.has(DOCUMENTS.name)) ? await ctx.tables.read(DOCUMENTS) : []
  const ids = new Set<string>()
  const unknown: string[] = []
  for (const name of names) {
    const matches = documents.filter((d) => d.id === name || d.title === name)
    if (matches.length === 0) unknown.push(name)
    for (const d of matches) ids.add(d.id)
  }
  if (unknown.length > 0) {
    throw new ConfigError(`${key}: no document has the id or title ${unknown.map((n) => JSON.stringify(n)).join(', ')}`)
  }
  return ids
}

export function chunkGraphFingerprint(s: Settings['chunk_graph']): Record<string, unknown> {
  const {
    workers: _workers,
    cross_document_documents: documents,
    refresh_documents: refresh,
    refresh_new_units: newUnits,
    ...rest
  } = s
  // Keys at their defaults stay out, so an index built before they existed resumes.
  return {
    ...rest,
    ...(documents === null ? {} : { cross_document_documents: documents }),
    ...(refresh === null ? {} : { refresh_documents: refresh, refresh_new_units: newUnits }),
  }
}
