/** Hybrid search's ranking (`query --explain`, POST /ranking/preview): each passage's signals, bonuses and score. */

export interface RankingRow {
  rank: number
  id: string
  label: string | null
  reason: string
  vector?: { rank: number; score: number } | null
  bm25?: { rank: number; score: number } | null
  graph?: { rank: number; hops: number; entity: string } | null
  fused_norm?: number
  bonuses?: Record<string, number>
  composite?: number
  final_score?: number
  why?: string
}

const fixed = (n: number | undefined | null, digits = 3) => (typeof n === 'number' ? n.toFixed(digits) : '–')
const rankOf = (signal: { rank: number } | null | undefined) => (signal ? `#${signal.rank}` : '–')

export function RankingTable({ rows }: { rows: RankingRow[] }) {
  return (
    <details class="ranking" open>
      <summary>Ranking: {rows.length} candidates (explain)</summary>
      <table id="ranking-table">
        <thead>
          <tr>
            <th>#</th>
            <th>cited as</th>
            <th>reason</th>
            <th>vector</th>
            <th>bm25</th>
            <th>graph</th>
            <th>fused</th>
            <th>bonus</th>
            <th>score</th>
            <th>why</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.rank}</td>
              <td>{row.label ?? '–'}</td>
              <td>{row.reason}</td>
              <td>{rankOf(row.vector)}</td>
              <td>{rankOf(row.bm25)}</td>
              <td>{row.graph ? `#${row.graph.rank} (${row.graph.hops} hops)` : '–'}</td>
              <td>{fixed(row.fused_norm)}</td>
              <td>
                {fixed(
                  Object.values(row.bonuses ?? {}).reduce((a, b) => a + b, 0),
                  2,
                )}
              </td>
              <td>{fixed(row.final_score ?? row.composite)}</td>
              <td class="why">{row.why ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}
