/**
 * Samples resident memory while a workflow runs, for the peak figure in stats.json. `memoryUsage.rss()`
 * rather than `memoryUsage()`: the latter also gathers heap statistics, ~1 % of a run's CPU at 20 samples a second.
 */

export interface MemorySampler {
  stop(): { peakBytes: number; deltaBytes: number }
}

export function sampleMemory(intervalMs = 50): MemorySampler {
  const start = process.memoryUsage.rss()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, intervalMs)
  timer.unref()
  return {
    stop() {
      clearInterval(timer)
      const end = process.memoryUsage.rss()
      peak = Math.max(peak, end)
      return { peakBytes: peak, deltaBytes: end - start }
    },
  }
}
