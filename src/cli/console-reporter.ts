/**
 * Renders a run on the terminal: an ora spinner per workflow with done/total, rate and ETA on a
 * TTY; plain timestamped lines when not a TTY or when CI=true (logs stay readable).
 */
import ora, { type Ora } from 'ora'
import type { LiveStatus, PipelineEndInfo, Reporter, RerunInfo, WorkflowEndInfo } from '../index/run/reporter.js'
import { cacheSplitLines } from './cache-split.js'
import type { ModelUsageLine } from '../index/run/usage-by-model.js'
import type { BatchStats } from '../index/run/run-stats.js'
import { clockTime, formatCount, formatSeconds, formatUsd } from './format.js'

interface Stream {
  write(text: string): unknown
  isTTY?: boolean
  columns?: number
}

export function createConsoleReporter(
  options: { stream?: Stream; interactive?: boolean } = {},
): Reporter & { workflowInterrupted(name: string): void } {
  const stream = options.stream ?? process.stderr
  const interactive =
    options.interactive ?? (isSizedTerminal(stream) && process.env.CI !== 'true' && process.env.CI !== '1')
  return interactive ? new SpinnerReporter(stream) : new LineReporter(stream)
}

// A pseudo-terminal with no window size (`script` in a pipeline, `docker run -t` before a resize)
// reports 0 columns; a spinner there computes an unbounded number of lines to erase.
function isSizedTerminal(stream: Stream): boolean {
  return Boolean(stream.isTTY) && (stream.columns ?? 0) > 0
}

abstract class BaseReporter implements Reporter {
  protected progressStart = new Map<string, number>()
  private live: ((workflow: string) => LiveStatus) | undefined
  constructor(protected readonly stream: Stream) {}

  watch(source: (workflow: string) => LiveStatus): void {
    this.live = source
  }

  /** "3 retries, 1 call waiting 28 s", or '' when calls go smoothly. */
  protected liveText(workflow: string): string {
    const s = this.live?.(workflow)
    if (s === undefined) return ''
    const parts: string[] = []
    if (s.retries > 0) parts.push(`${formatCount(s.retries)} ${s.retries === 1 ? 'retry' : 'retries'}`)
    if (s.waitingCalls > 0)
      parts.push(
        `${s.waitingCalls} ${s.waitingCalls === 1 ? 'call' : 'calls'} waiting ${Math.round(s.longestWaitSeconds)} s`,
      )
    if (s.endpoints !== undefined) parts.push(s.endpoints)
    if (s.batches !== undefined) parts.push(s.batches)
    const store = s.storeRetries ?? 0
    if (store > 0) parts.push(`${formatCount(store)} store ${store === 1 ? 'retry' : 'retries'}`)
    return parts.join(', ')
  }

  protected withLive(workflow: string, text: string): string {
    const live = this.liveText(workflow)
    return live === '' ? text : `${text} · ${live}`
  }

  protected line(text: string): void {
    this.stream.write(`${text}\n`)
  }

  pipelineStart(workflows: readonly string[], resumed: readonly string[], rerun: RerunInfo | undefined): void {
    this.line(`Pipeline: ${workflows.join(', ')}`)
    if (resumed.length > 0)
      this.line(
        `Resuming: skipping ${resumed.length} finished workflow(s) with unchanged inputs (${resumed.join(', ')}); --no-resume runs all`,
      )
    if (rerun !== undefined) this.line(`Re-running ${rerun.workflow}: ${rerun.reason}`)
  }

  abstract workflowStart(name: string): void
  abstract progress(workflow: string, label: string, done: number, total: number): void
  abstract workflowEnd(name: string, info: WorkflowEndInfo): void
  abstract warning(message: string): void

  /** Only the name: the cause is printed once, by the CLI's error printer. */
  abstract workflowFailed(name: string): void

  protected progressText(label: string, done: number, total: number): string {
    const now = performance.now()
    if (done === 0 || !this.progressStart.has(label)) this.progressStart.set(label, now)
    const elapsed = (now - this.progressStart.get(label)!) / 1000
    const rate = elapsed > 0 ? done / elapsed : 0
    const eta = rate > 0 && done < total ? ` ETA ${formatSeconds((total - done) / rate)}` : ''
    return `${label} ${done}/${total}${rate > 0 ? ` (${rate.toFixed(1)}/s${eta})` : ''}`
  }

  protected endText(name: string, info: WorkflowEndInfo): string {
    const rows = Object.entries(info.rows)
      .map(([t, n]) => `${t}: ${formatCount(n)}`)
      .join(', ')
    const failed = info.failures > 0 ? `, ${info.failures} failed item(s) listed in stats.json` : ''
    return `${name} done in ${formatSeconds(info.seconds)}${rows ? ` (${rows})` : ''}${failed}`
  }

  pipelineEnd(info: PipelineEndInfo): void {
    this.line('')
    this.line(`Index complete in ${formatSeconds(info.seconds)}: ${info.outputDir}`)
    const width = Math.max(20, ...info.tables.map((t) => t.name.length)) + 2
    for (const t of info.tables) this.line(`  ${t.name.padEnd(width)}${formatCount(t.rows).padStart(8)} rows`)
    if (info.vectorStore) this.line(`  ${'vectors (LanceDB)'.padEnd(width)}${info.vectorStore}`)
    const u = info.usage
    if (u.calls > 0 || u.cacheHits > 0) {
      this.line(`Model usage: ${usageText(u)}, ${totalCost(info)}`)
    }
    if (info.usageByModel.length > 1)
      for (const m of info.usageByModel) this.line(`  ${m.id} (${m.model}): ${usageText(m.usage)}, ${modelCost(m)}`)
    for (const line of cacheSplitLines(info)) this.line(line)
    // A batch run answered wholly from the cache collected nothing: no line.
    if (info.batch !== undefined && info.batch.batches_collected > 0) this.line(batchText(info.batch))
    for (const note of info.notes ?? []) this.line(`Note: ${note}`)
  }
}

/** "Batch API: 4 batches, 37 lines; $0.0100 instead of $0.0200 at synchronous prices (saved $0.0100)". */
function batchText(b: BatchStats): string {
  const batches = `${formatCount(b.batches_collected)} ${b.batches_collected === 1 ? 'batch' : 'batches'}`
  return `Batch API: ${batches}, ${formatCount(b.lines_answered)} lines answered; ${formatUsd(b.cost_usd)} instead of ${formatUsd(b.sync_cost_usd)} at synchronous prices (saved ${formatUsd(b.saved_usd)})`
}

export function usageText(u: PipelineEndInfo['usage']): string {
  return `${formatCount(u.calls)} calls, ${formatCount(u.cacheHits)} cache hits, ${formatCount(u.promptTokens)} prompt + ${formatCount(u.completionTokens)} completion tokens`
}

/** A model without a known price makes the total a lower bound: say so rather than show $0. */
function totalCost(info: PipelineEndInfo): string {
  const unpriced = info.usageByModel.filter((m) => m.usage.unpricedTokens > 0)
  if (unpriced.length === 0) return formatUsd(info.usage.costUsd)
  if (unpriced.length === info.usageByModel.length) return 'cost unknown'
  return `${formatUsd(info.usage.costUsd)} + unknown (${unpriced.map((m) => m.id).join(', ')})`
}

export function modelCost(m: ModelUsageLine): string {
  return m.usage.unpricedTokens > 0 ? 'cost unknown' : formatUsd(m.usage.costUsd)
}

class LineReporter extends BaseReporter {
  private lastPrinted = new Map<string, { at: number; done: number }>()
  private ticker: NodeJS.Timeout | undefined
  private lastLive = ''

  private stamp(text: string): void {
    this.line(`[${clockTime(new Date())}] ${text}`)
  }

  workflowStart(name: string): void {
    this.stamp(`Starting workflow: ${name}`)
    this.stopTicker()
    // A hanging call makes no progress ticks: say so every five seconds while one waits.
    this.ticker = setInterval(() => {
      const live = this.liveText(name)
      if (live.includes('waiting') && live !== this.lastLive) this.stamp(`  ${name}: ${live}`)
      this.lastLive = live
    }, 5000)
    this.ticker.unref()
  }

  private stopTicker(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker)
    this.ticker = undefined
  }

  progress(workflow: string, label: string, done: number, total: number): void {
    const text = this.withLive(workflow, this.progressText(label, done, total))
    const now = performance.now()
    const last = this.lastPrinted.get(label)
    if (last !== undefined && last.done === done) return
    // Throttle: the end and at most one line every five seconds.
    if (done === total || now - (last?.at ?? 0) > 5000) {
      if (total === 0) return
      this.lastPrinted.set(label, { at: now, done })
      this.stamp(`  ${text}`)
    }
  }

  workflowEnd(name: string, info: WorkflowEndInfo): void {
    this.stopTicker()
    this.stamp(this.withLive(name, this.endText(name, info)))
  }

  workflowFailed(name: string): void {
    this.stopTicker()
    this.stamp(`${name} failed`)
  }

  /** Nothing but stop: the closing "interrupted: …" line says it. */
  workflowInterrupted(): void {
    this.stopTicker()
  }

  warning(message: string): void {
    this.stamp(`warning: ${message}`)
  }
}

class SpinnerReporter extends BaseReporter {
  private spinner: Ora | undefined
  // Workflows that run side by side share one spinner, a line each, in the order they started.
  private running = new Map<string, string>()
  private ticker: NodeJS.Timeout | undefined

  private render(): void {
    if (this.running.size === 0) {
      this.stopTicker()
      this.spinner?.stop()
      this.spinner = undefined
      return
    }
    const text = [...this.running].map(([name, line]) => this.withLive(name, line)).join('\n')
    // discardStdin off: ora's default puts stdin in raw mode, where Ctrl-C sends no SIGINT and the run goes on.
    if (this.spinner === undefined)
      this.spinner = ora({ text, stream: this.stream as NodeJS.WritableStream, discardStdin: false }).start()
    else this.spinner.text = text
    // Re-rendered every second, so a call that hangs shows its growing wait between progress ticks.
    if (this.ticker === undefined) {
      this.ticker = setInterval(() => this.render(), 1000)
      this.ticker.unref()
    }
  }

  private stopTicker(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker)
    this.ticker = undefined
  }

  /** A finished workflow's line goes above the spinner, which keeps the ones still running. */
  private finish(name: string, symbol: string, text: string): void {
    this.running.delete(name)
    this.spinner?.clear()
    this.line(`${symbol} ${text}`)
    this.render()
  }

  workflowStart(name: string): void {
    this.running.set(name, name)
    this.render()
  }

  progress(workflow: string, label: string, done: number, total: number): void {
    if (!this.running.has(workflow)) return
    this.running.set(workflow, `${workflow}: ${this.progressText(label, done, total)}`)
    this.render()
  }

  workflowEnd(name: string, info: WorkflowEndInfo): void {
    this.finish(name, '✔', this.withLive(name, this.endText(name, info)))
  }

  warning(message: string): void {
    if (this.spinner) this.spinner.clear()
    this.line(`warning: ${message}`)
    if (this.spinner) this.spinner.render()
  }

  workflowFailed(name: string): void {
    this.finish(name, '✖', `${name} failed`)
  }

  workflowInterrupted(): void {
    this.running.clear()
    this.render()
  }

  override pipelineEnd(info: PipelineEndInfo): void {
    this.running.clear()
    this.render()
    super.pipelineEnd(info)
  }
}
