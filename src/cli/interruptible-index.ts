/**
 * `graphrag index` and `graphrag update` with Ctrl-C handled: exit 130 with one line and stats.json
 * marked `interrupted`.
 */
import { recordInterruption } from '../index/run/interrupt.js'
import { configOf, runIndex, type RunIndexOptions } from '../index/run/runner.js'
import { generationPaths } from '../storage/generations.js'
import { endWithPendingBatches } from './batch-pending.js'
import { GRACE_MS, handleInterrupts, type InterruptibleReporter } from './interrupt-handler.js'

/** `graphrag index`. */
export async function runInterruptibleIndex(options: RunIndexOptions, reporter: InterruptibleReporter): Promise<void> {
  await runInterruptibly(options, reporter, runIndex)
}

/**
 * Runs `run` (the index or the update) with the first Ctrl-C / SIGTERM asking it to stop: no new
 * model call, the calls in flight get GRACE_MS to finish and be cached. Returns undefined when the
 * run was interrupted (exit code 130 is set and the closing line printed).
 */
export async function runInterruptibly<T>(
  options: RunIndexOptions,
  reporter: InterruptibleReporter,
  run: (options: RunIndexOptions) => Promise<T>,
): Promise<T | undefined> {
  const handler = handleInterrupts(reporter)
  const { interruption } = handler
  try {
    return await run({ ...options, reporter: handler.reporter, interrupt: interruption, signal: interruption.signal })
  } catch (error) {
    if (endWithPendingBatches(error, process.stderr)) return undefined
    if (!interruption.requested) throw error
    // Calls already sent finish (and are cached) first, so a re-run does not pay for them again.
    await interruption.drain(GRACE_MS)
    const { settings } = configOf(options)
    // The interrupted run's stats.json is in its work folder: output/ still holds the last complete index.
    await recordInterruption(generationPaths(settings.output_storage.base_dir).work)
    process.stderr.write(`${handler.summary(resumeHint(process.argv.slice(2), options.cache === false))}\n`)
    process.exitCode = 130
    return undefined
  } finally {
    handler.dispose()
  }
}

/**
 * How to resume, from the command line the run was started with. `--no-resume` makes the same
 * command start again from the first workflow, so the hint names the command without it; under
 * `--no-cache` no answer of the interrupted workflow was kept, which the hint says.
 */
export function resumeHint(args: readonly string[], noCache: boolean): string {
  const kept = args.filter((a) => a !== '--no-resume')
  const caveat = noCache
    ? ' (finished workflows are kept; with --no-cache no model answer of the interrupted one was kept, so it starts over)'
    : ''
  if (kept.length === args.length && !noCache) return 'run the same command to resume'
  return `run \`${['graphrag', ...kept].map(shellWord).join(' ')}\` to resume${caveat}`
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}
