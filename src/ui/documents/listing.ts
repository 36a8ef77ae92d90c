/** The documents listing of one view (status filter, sort, page), read from GET /documents. */
import { useEffect, useState } from 'preact/hooks'
import { api, errorOf } from '../api.js'
import type { View } from './controls.js'
import type { DocumentInfo } from './table.js'

export const PAGE_SIZE = 50

export interface ReadyListing {
  state: 'ready'
  documents: DocumentInfo[]
  /** Whether a published index exists (else the next job is the first index). */
  index: boolean
  total: number
  counts: Record<string, number>
}

export type Listing =
  | { state: 'loading' }
  | { state: 'unavailable' }
  | { state: 'error'; message: string }
  | ReadyListing

/** The listing of `view`, loaded again whenever the view changes or `load` is called (a fresh scan). */
export function useListing(view: View): { listing: Listing; load: () => Promise<void> } {
  const [listing, setListing] = useState<Listing>({ state: 'loading' })
  async function load(): Promise<void> {
    try {
      setListing(await fetchListing(view))
    } catch (error) {
      setListing({ state: 'error', message: (error as Error).message })
    }
  }
  useEffect(() => void load(), [view])
  return { listing, load }
}

async function fetchListing(view: View): Promise<Listing> {
  const query = new URLSearchParams({
    sort: view.sort,
    limit: String(PAGE_SIZE),
    offset: String(view.page * PAGE_SIZE),
  })
  if (view.status !== '') query.set('status', view.status)
  const response = await api(`/documents?${query}`)
  // A server without the documents API (an older graphrag): the page says so instead of failing.
  if (response.status === 404 || response.status === 405) return { state: 'unavailable' }
  if (!response.ok) throw await errorOf(response)
  const body = (await response.json()) as {
    documents: DocumentInfo[]
    index?: boolean
    total?: number
    counts?: Record<string, number>
  }
  // An older server does not say: it had an index when it listed documents, all of them.
  return {
    state: 'ready',
    documents: body.documents,
    index: body.index ?? true,
    total: body.total ?? body.documents.length,
    counts: body.counts ?? {},
  }
}
