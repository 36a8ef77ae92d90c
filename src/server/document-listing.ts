/**
 * GET /documents' and MCP list_documents' view of the catalog: filter by status, sort, page.
 * Counts by status are of the whole listing, so a client can show them beside its filter.
 */
import { z } from 'zod'
import { RequestError } from '../errors.js'
import type { DocumentCatalog, DocumentEntry, DocumentStatus } from './documents.js'

export const DOCUMENT_STATUSES = [
  'indexed',
  'new',
  'edited',
  'deleted',
  'skipped',
  'failed',
] as const satisfies readonly DocumentStatus[]
export const DOCUMENT_SORTS = ['title', 'added', 'size', 'status', 'text_units'] as const
export const MAX_PAGE = 1000

export interface ListingQuery {
  /** Only these statuses; all when empty. */
  status: DocumentStatus[]
  sort: (typeof DOCUMENT_SORTS)[number]
  descending: boolean
  offset: number
  /** At most this many; undefined = all. */
  limit: number | undefined
}

export interface DocumentListing {
  documents: DocumentEntry[]
  total: number
  offset: number
  limit: number | null
  counts: Record<DocumentStatus, number>
}

export async function listDocuments(catalog: DocumentCatalog, query: ListingQuery): Promise<DocumentListing> {
  const all = await catalog.list()
  const counts = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) as Record<DocumentStatus, number>
  for (const entry of all) counts[entry.status] += 1
  const wanted = new Set(query.status)
  const kept = all.filter((e) => wanted.size === 0 || wanted.has(e.status))
  const sign = query.descending ? -1 : 1
  // Title breaks ties, then id, so every page of a listing is stable.
  kept.sort((a, b) => sign * compare(a[query.sort], b[query.sort]) || compare(a.title, b.title) || compare(a.id, b.id))
  const end = query.limit === undefined ? undefined : query.offset + query.limit
  return {
    documents: kept.slice(query.offset, end),
    total: kept.length,
    offset: query.offset,
    limit: query.limit ?? null,
    counts,
  }
}

function compare(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0
}

/** The query parameters of GET /documents (`status=new,edited&sort=-added&limit=50&offset=100`), one clear error per bad one. */
export function listingQuery(params: Record<string, string | undefined>): ListingQuery {
  const status = (params.status ?? '').split(',').filter((s) => s !== '')
  const unknown = status.find((s) => !(DOCUMENT_STATUSES as readonly string[]).includes(s))
  if (unknown !== undefined)
    throw new RequestError(400, `status: "${unknown}" is not one of ${DOCUMENT_STATUSES.join(', ')}`)
  const rawSort = params.sort ?? 'title'
  const sort = rawSort.replace(/^-/, '')
  if (!(DOCUMENT_SORTS as readonly string[]).includes(sort))
    throw new RequestError(
      400,
      `sort: "${rawSort}" is not one of ${DOCUMENT_SORTS.join(', ')} (prefix - for descending)`,
    )
  return {
    status: status as DocumentStatus[],
    sort: sort as ListingQuery['sort'],
    descending: rawSort.startsWith('-'),
    offset: whole(params.offset, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: whole(params.limit, 'limit', 1, MAX_PAGE),
  }
}

function whole(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new RequestError(400, `${name}: expected a whole number from ${min} to ${max}, got "${value}"`)
  return n
}

/** The same parameters as MCP tool arguments. */
export const LISTING_ARGS = {
  status: z.array(z.enum(DOCUMENT_STATUSES)).optional().describe('Only documents with these statuses (default all)'),
  sort: z
    .enum([...DOCUMENT_SORTS, ...DOCUMENT_SORTS.map((s) => `-${s}` as const)])
    .optional()
    .describe('Sort key, "-" prefix for descending; default title'),
  limit: z.number().int().min(1).max(MAX_PAGE).default(100).describe(`At most this many (1-${MAX_PAGE}); default 100`),
  offset: z.number().int().min(0).default(0).describe('Skip this many (paging)'),
}
