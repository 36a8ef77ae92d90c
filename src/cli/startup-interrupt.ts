/**
 * Ctrl-C / SIGTERM that arrives while `graphrag index` or `graphrag update` is still starting
 * (loading its modules and settings, before the run's own handler takes over in
 * interrupt-handler.ts). Node's default would end the process with no word; this records the
 * interruption in the run log, says so in one line and exits 130. A second signal exits at once.
 */
import { join } from 'node:path'

/** The commands whose runs handle interrupts once started. */
const RUN_COMMANDS = new Set(['index', 'update'])

let onSignal: ((signal: NodeJS.Signals) => void) | undefined

/** Called first thing by bin/graphrag.js with the process's argv. */
export function watchStartupSignals(argv: readonly string[]): void {
  if (!RUN_COMMANDS.has(argv[2] ?? '') || onSignal !== undefined) return
  let stopping = false
  onSignal = (signal) => {
    if (stopping) process.exit(130)
    stopping = true
    void recordStartupInterrupt(argv, signal).finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/** The run's handler takes over (handleInterrupts). */
export function stopWatchingStartupSignals(): void {
  if (onSignal === undefined) return
  process.off('SIGINT', onSignal)
  process.off('SIGTERM', onSignal)
  onSignal = undefined
}

async function recordStartupInterrupt(argv: readonly string[], signal: NodeJS.Signals): Promise<void> {
  const message = `interrupted while starting (${signal}), before any workflow ran: nothing was done; run the same command to start`
  const logged = await appendToRunLog(argv, message).catch(
    (error: unknown) => ` (not written to the run log: ${error instanceof Error ? error.message : String(error)})`,
  )
  process.stderr.write(`${message}${logged}\n`)
}

/** Appends the line to `<reporting.base_dir>/indexing-engine.log`; returns what to add to the screen line. */
async function appendToRunLog(argv: readonly string[], message: string): Promise<string> {
  const { loadConfig } = await import('../config/load.js')
  const { createFileLogger } = await import('../index/run/file-logger.js')
  const configFile = optionValue(argv, '--config', '-c')
  const { settings } = loadConfig({
    root: optionValue(argv, '--root', '-r') ?? '.',
    ...(configFile === undefined ? {} : { configFile }),
  })
  if (settings.reporting.type !== 'file') return ` (the run log is on ${settings.reporting.type} storage: not written)`
  const path = join(settings.reporting.base_dir, 'indexing-engine.log')
  createFileLogger(path, { verbose: false }).warn(message)
  return ''
}

/** `--root DIR`, `--root=DIR` or `-r DIR` from the raw argv (commander has not parsed it yet). */
function optionValue(argv: readonly string[], long: string, short: string): string | undefined {
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg.startsWith(`${long}=`)) return arg.slice(long.length + 1)
    if ((arg === long || arg === short) && i + 1 < argv.length) return argv[i + 1]
  }
  return undefined
}
