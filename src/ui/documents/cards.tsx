/** The cards above the listing: "Build index" for a project without one, "Update now" for files changed on disk. */

export function NoIndexCard({ total, onBuild }: { total: number; onBuild: () => Promise<void> }) {
  return (
    <section class="card" id="no-index">
      <p>
        No index yet.{' '}
        {total > 0
          ? `Build one from the ${total} document${total === 1 ? '' : 's'} below, or add more first.`
          : 'Add documents above, then build it.'}
      </p>
      <button type="button" id="build-index" disabled={total === 0} onClick={() => void onBuild()}>
        Build index
      </button>
    </section>
  )
}

/** The statuses an update applies: files added, edited or deleted in the input storage since the last index. */
const CHANGES = ['new', 'edited', 'deleted'] as const

/**
 * What the last scan of the input storage found changed since the index (counts over the whole
 * listing, whatever the filter), with "Scan again" and "Update now", which runs `update`.
 */
export function PendingChanges(props: {
  counts: Record<string, number>
  busy: boolean
  onScan: () => Promise<void>
  onUpdate: () => Promise<void>
}) {
  const found = CHANGES.filter((s) => (props.counts[s] ?? 0) > 0)
  return (
    <section class="card pending" id="pending-changes" data-changes={String(found.length > 0)}>
      <p>
        {found.length === 0
          ? 'The index is up to date with the input folder.'
          : `Changed since the index: ${found.map((s) => `${props.counts[s]} ${s}`).join(', ')}.`}
      </p>
      <button type="button" class="secondary" id="scan-input" disabled={props.busy} onClick={() => void props.onScan()}>
        Scan again
      </button>
      <button
        type="button"
        id="update-now"
        disabled={props.busy || found.length === 0}
        onClick={() => void props.onUpdate()}
      >
        Update now
      </button>
    </section>
  )
}
