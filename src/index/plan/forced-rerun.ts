/**
 * A run that refreshes one workflow and what follows it (seed design 000's relations-only refresh:
 * `graphrag refresh-relations` re-runs create_chunk_graph). Everything before it must resume from
 * the current index: a refresh never extracts entities again, so a stale or missing index is an
 * error pointing at `graphrag index` instead of a silent full run.
 */
import { ConfigError } from '../../errors.js'
import type { WorkflowName } from '../workflows/index.js'

export function forcedRerun(
  workflows: ReadonlyArray<{ name: WorkflowName }>,
  resumeFrom: number,
  from: WorkflowName,
): { resumeFrom: number; rerun: { workflow: WorkflowName; reason: string } } {
  const at = workflows.findIndex((w) => w.name === from)
  if (at < 0) throw new ConfigError(`${from} is not among this project's workflows (workflows setting)`)
  if (resumeFrom < at) {
    const stale = workflows[resumeFrom]!.name
    throw new ConfigError(
      `the index is not up to date (${stale} would run first, with every workflow after it); run \`graphrag index\` before refreshing ${from}`,
    )
  }
  return { resumeFrom: at, rerun: { workflow: from, reason: 'refresh requested' } }
}
