/** The listing's status filter, sort and paging. */
import { PAGE_SIZE } from './listing.js'
import type { DocumentInfo } from './table.js'

/** What the listing shows: a status filter ('' = all), a sort key and a page. */
export interface View {
  status: string
  sort: string
  page: number
}

const STATUSES = ['indexed', 'new', 'edited', 'deleted', 'skipped', 'failed']
const SORTS: Array<[string, string]> = [
  ['title', 'Title'],
  ['-added', 'Newest'],
  ['added', 'Oldest'],
  ['-size', 'Largest'],
  ['status', 'Status'],
]

export function ListingControls({
  listing,
  view,
  setView,
}: {
  listing: { total: number; counts: Record<string, number>; documents: DocumentInfo[] }
  view: View
  setView: (view: View) => void
}) {
  const all = Object.values(listing.counts).reduce((a, b) => a + b, 0)
  const first = view.page * PAGE_SIZE
  return (
    <div class="listing-controls">
      <select
        id="status-filter"
        aria-label="Status"
        value={view.status}
        onChange={(e) => setView({ ...view, status: e.currentTarget.value, page: 0 })}
      >
        <option value="">All ({all})</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s} ({listing.counts[s] ?? 0})
          </option>
        ))}
      </select>
      <select
        id="sort"
        aria-label="Sort"
        value={view.sort}
        onChange={(e) => setView({ ...view, sort: e.currentTarget.value, page: 0 })}
      >
        {SORTS.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
      <span class="meta" id="listing-range">
        {listing.total === 0 ? 'none' : `${first + 1}–${first + listing.documents.length} of ${listing.total}`}
      </span>
      <Pager view={view} setView={setView} last={first + listing.documents.length >= listing.total} />
    </div>
  )
}

function Pager({ view, setView, last }: { view: View; setView: (view: View) => void; last: boolean }) {
  return (
    <>
      <button
        type="button"
        class="secondary"
        id="page-prev"
        disabled={view.page === 0}
        onClick={() => setView({ ...view, page: view.page - 1 })}
      >
        Previous
      </button>
      <button
        type="button"
        class="secondary"
        id="page-next"
        disabled={last}
        onClick={() => setView({ ...view, page: view.page + 1 })}
      >
        Next
      </button>
    </>
  )
}
