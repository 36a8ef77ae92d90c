/** The `estimate` rows of stats.json (dry-run estimate beside the actual usage), read by the e2e estimate checks. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

export const USAGE_FIELDS = ['calls', 'promptTokens', 'completionTokens'] as const

export type Usage = Record<(typeof USAGE_FIELDS)[number], number>

export interface EstimateRow {
  workflow: string
  estimated: Usage
  actual: Usage
}

export async function readEstimateRows(root: string): Promise<EstimateRow[]> {
  const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')) as { estimate: EstimateRow[] }
  return stats.estimate
}

export function pickUsage(usage: Usage): Usage {
  return { calls: usage.calls, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }
}

export function within30Percent(estimated: number, actual: number): boolean {
  return Math.abs(estimated - actual) <= 0.3 * actual
}

/** Totals over all workflows must be within ±30 % for every usage field. */
export function totalsWithin30Percent(rows: readonly EstimateRow[]): Array<{ field: string; ok: boolean }> {
  return USAGE_FIELDS.map((field) => {
    const total = (side: 'estimated' | 'actual') => rows.reduce((sum, r) => sum + r[side][field], 0)
    return { field, ok: within30Percent(total('estimated'), total('actual')) }
  })
}
