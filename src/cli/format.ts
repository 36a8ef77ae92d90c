/** Small formatting helpers for console output. */

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  const m = Math.floor(seconds / 60)
  return `${m} min ${Math.round(seconds - m * 60)} s`
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

export function formatUsd(n: number): string {
  return n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`
}

export function clockTime(d: Date): string {
  return d.toTimeString().slice(0, 8)
}
