/** `graphrag index` with Ctrl-C handled: exit 130 with one line and stats.json marked `interrupted`. */
import { loadConfig } from '../config/load.js'
import { recordInterruption } from '../index/run/interrupt.js'
import { runIndex, type RunIndexOptions } from '../index/run/runner.js'
import { generationPaths } from '../storage/generations.js'
import { GRACE_MS, handleInterrupts, type InterruptibleReporter } from './interrupt-handler.js'

export async function runInterruptibleIndex(options: RunIndexOptions, reporter: InterruptibleReporter): Promise<void> {
  const handler = handleInterrupts(reporter)
  const { interruption } = handler
  try {
    await runIndex({ ...options, reporter: handler.reporter, interrupt: interruption, signal: interruption.signal })
  } catch (error) {
    if (!interruption.requested) throw error
    // Calls already sent finish (and are cached) first, so a re-run does not pay for them again.
    await interruption.drain(GRACE_MS)
    const { settings } = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
    // The interrupted run's stats.json is in its work folder: output/ still holds the last complete index.
    await recordInterruption(generationPaths(settings.output_storage.base_dir).work)
    process.stderr.write(`${handler.summary()}\n`)
    process.exitCode = 130
  } finally {
    handler.dispose()
  }
}
