/**
 * `graphrag index|update --shard I/N` (or `--shard auto`, the slice from an array-job platform's
 * variables): one shard's model work into the shared cache, with Ctrl-C handled as `index` does.
 */
import { runShard } from '../index/run/shard.js'
import { resolveShard } from '../index/run/shard-platforms.js'
import type { RunIndexOptions } from '../index/run/runner.js'
import { createConsoleReporter } from './console-reporter.js'
import { formatCount } from './format.js'
import { GRACE_MS, handleInterrupts } from './interrupt-handler.js'
import { usageText } from './console-reporter.js'

export async function runShardCommand(
  options: RunIndexOptions,
  spec: string,
  mode: { update: boolean },
): Promise<void> {
  const { slice: shard, origin } = resolveShard(spec, options.env ?? process.env)
  if (origin !== undefined) process.stdout.write(`--shard auto: shard ${shard.index}/${shard.count} (${origin})\n`)
  const handler = handleInterrupts(createConsoleReporter())
  const { interruption } = handler
  const command = mode.update ? 'graphrag update' : 'graphrag index'
  try {
    const result = await runShard(
      { ...options, reporter: handler.reporter, interrupt: interruption, signal: interruption.signal },
      shard,
      mode,
    )
    const out = process.stdout
    const name = `shard ${shard.index}/${shard.count}`
    if (!result.changed) {
      out.write(`${name}: no new, edited or deleted documents; nothing to do\n`)
      return
    }
    out.write(
      `${name}: model work for ${formatCount(result.shardTextUnits)} of ${formatCount(result.textUnits)} text units ` +
        `(${result.prefetched.join(', ') || 'no workflow with model work'}) is in the cache; ${usageText(result.stats.llm_totals)}\n`,
    )
    out.write(
      `when every shard has finished, run ${command} without --shard over the same storage: it answers these calls from the cache\n`,
    )
  } catch (error) {
    if (!interruption.requested) throw error
    // Calls already sent finish (and are cached) first, so running the shard again does not pay for them.
    await interruption.drain(GRACE_MS)
    process.stderr.write(
      `interrupted: shard ${shard.index}/${shard.count}; run the same command to go on where it stopped\n`,
    )
    process.exitCode = 130
  } finally {
    handler.dispose()
  }
}
