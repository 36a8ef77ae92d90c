/** What `graphrag update` does once its flags are parsed (loaded only when it runs). */
import type { UpdateReports } from '../index/plan/estimate-update.js'
import { configOf, type RunIndexOptions } from '../index/run/runner.js'
import type { RunStatsFile } from '../index/run/run-stats.js'
import { describeChanges, type DocumentChanges, estimateUpdate, runUpdate } from '../index/run/update.js'
import { createConsoleReporter } from './console-reporter.js'
import { writeEstimateRows } from './dry-run.js'
import { formatCount } from './format.js'
import { refreshFullTextAfterRun } from './full-text-after-run.js'

/** Shared with `graphrag index --method standard-update|fast-update`. */
export async function updateCommand(options: RunIndexOptions, dryRun: boolean): Promise<void> {
  const out = process.stdout
  if (dryRun) {
    const { plan, reports, estimate } = await estimateUpdate(options, (message) =>
      process.stderr.write(`warning: ${message}\n`),
    )
    printChanges(plan.changes, out)
    if (reports === undefined || estimate === undefined) return void out.write('Index is up to date: nothing to do.\n')
    out.write(
      `Method: ${plan.method}; to extract: ${formatCount(plan.figures.chunks)} chunks, ${formatCount(plan.figures.chunkTokens)} tokens\n`,
    )
    writeReports(reports, plan.method, out)
    writeEstimateRows(estimate, out)
    return void out.write('Dry run: nothing was called or written.\n')
  }
  const { runInterruptibly } = await import('./interruptible-index.js')
  // Loaded once: the plan, the run, an interruption's record and the full-text refresh all use it.
  const loaded = { ...options, config: configOf(options) }
  const result = await runInterruptibly(loaded, createConsoleReporter(), runUpdate)
  if (result === undefined) return
  if (result.upToDate)
    out.write(`Index is up to date (${describeChanges(result.changes)}): no model was called, output/ is unchanged.\n`)
  else {
    process.stderr.write(`Updated: ${describeChanges(result.changes)}; previous index kept in ${result.backupDir}\n`)
    const reports = describeReports(result.stats.workflows)
    if (reports !== undefined) process.stderr.write(`${reports}\n`)
    await refreshFullTextAfterRun(loaded)
  }
}

/**
 * What became of the community reports, from the report workflows' stats; undefined when they did not
 * run. Reports asked of the model and model calls made are counted apart from reports whose text
 * differs from the previous index's: a model may write the same report again.
 */
export function describeReports(workflows: RunStatsFile['workflows']): string | undefined {
  const update = workflows.update_community_reports?.summary
  if (update === undefined || typeof update.reports !== 'number') return undefined
  const writer = workflows.create_community_reports ?? workflows.create_community_reports_text
  const made = writer?.summary ?? {}
  const count = (value: unknown): number => (typeof value === 'number' ? value : 0)
  const kept = count(made.kept_within_change)
  const bound = kept > 0 ? ` (${kept} of them with a context changed by at most ${made.max_kept_change})` : ''
  if (typeof made.reports_requested !== 'number')
    return `Reports: ${update.reports_regenerated} of ${update.reports} written again, ${update.reports_reused} kept${bound}`
  // Usage counts a request answered by the cache (or the previous index's replies) as a call and a hit.
  const usage = Object.values(writer?.llm ?? {})
  const calls = usage.reduce((n, u) => n + u.calls - u.cacheHits, 0)
  const answered = usage.reduce((n, u) => n + u.cacheHits, 0)
  const renumbered = count(made.reused_renumbered)
  // Replies replayed by context fingerprint: neither asked of the model nor renumbered.
  const unchanged = count(made.reused_unchanged)
  const reused = [
    ...(unchanged > 0 ? [`${unchanged} of an unchanged context`] : []),
    ...(renumbered > 0 ? [`${renumbered} with renumbered citations`] : []),
    ...(kept > 0 ? [`${kept} kept with a context changed by at most ${made.max_kept_change}`] : []),
  ]
  return (
    `Reports: ${made.reports_requested} of ${update.reports} asked of the model (${calls} model call(s) made, ${answered} answered by earlier replies), ` +
    `${unchanged + renumbered + kept} reused${reused.length > 0 ? ` (${reused.join(', ')})` : ''}; ` +
    `${update.reports_regenerated} read differently from the previous index's`
  )
}

/** The communities the change reaches, then the heading of the estimate rows, which says what they rest on. */
function writeReports(reports: UpdateReports, method: string, out: { write(text: string): unknown }): void {
  if ('missing' in reports) {
    out.write(
      `Reports: the previous index has no ${reports.missing.join(', ')} table(s), so the communities the change reaches are unknown: reports are guessed from the new and edited documents alone, which undercounts an update that deletes\n`,
    )
    return void out.write(
      'Estimated model usage (heuristic: the new and edited documents alone; reports and summaries of unchanged regions are reused):\n',
    )
  }
  const r = reports.reach
  const parts = [
    ...(r.replacedDocuments > 0
      ? [
          `deleted or edited documents reach ${formatCount(r.reached)}`,
          `${formatCount(r.shrinking)} more may take members those lose`,
        ]
      : []),
    ...(r.newDocuments > 0 ? [`new documents: ${r.newDocuments} × ${r.perDocument.toFixed(1)} on average`] : []),
  ]
  out.write(`Reports: up to ${formatCount(r.count)} of ${formatCount(r.total)} communities (${parts.join('; ')})\n`)
  out.write(
    method === 'standard'
      ? '  fewer are usually written: a report whose context changes little is kept (community_reports.update_max_context_change); a new document counts as the average reach of a document\n'
      : '  a report whose context is unchanged is reused; a new document counts as the average reach of a document\n',
  )
  out.write(
    'Estimated model usage (heuristic: extraction, summaries, text-unit and entity embeddings from the new and edited documents; reports and their embeddings from the communities above):\n',
  )
}

function printChanges(changes: DocumentChanges, out: { write(text: string): unknown }): void {
  out.write(`Documents: ${describeChanges(changes)}\n`)
  for (const [label, titles] of [
    ['new', changes.added],
    ['edited', changes.edited],
    ['deleted', changes.deleted],
  ] as const) {
    for (const title of titles) out.write(`  ${label.padEnd(7)} ${title}\n`)
  }
}
