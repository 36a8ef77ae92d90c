/**
 * The end-of-run lines that say, per workflow, which model calls this run made and which the cache
 * answered. After `--shard` runs the cache hits are the calls the shards made (docs/sharding.md), so
 * the final run shows how the work was split; a rerun shows what its earlier run already paid for.
 */
import type { PipelineEndInfo } from '../index/run/reporter.js'
import { formatCount } from './format.js'

/** No lines when the cache answered nothing: the usage line above says all there is. */
export function cacheSplitLines(info: Pick<PipelineEndInfo, 'usage' | 'usageByWorkflow'>): string[] {
  if (info.usage.cacheHits === 0 || info.usageByWorkflow === undefined) return []
  const width = Math.max(...info.usageByWorkflow.map((w) => w.workflow.length)) + 2
  return [
    'Model calls per workflow (from the cache: made by --shard runs or an earlier run):',
    ...info.usageByWorkflow.map(
      ({ workflow, usage }) =>
        `  ${`${workflow}:`.padEnd(width)}${formatCount(usage.calls - usage.cacheHits)} made here, ${formatCount(usage.cacheHits)} from the cache`,
    ),
  ]
}
