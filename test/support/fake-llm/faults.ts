/** Seeded fault injection for the fake server: which requests fail, and how. */

/**
 * `truncated` cuts the body short; `malformed` sends a broken body (or, for structured requests, half
 * the JSON content); `empty_choices`, `null_content` and `html` (an HTML page with status 200) are
 * well-formed replies with nothing usable in them; `wrong_shape` answers a structured request with a
 * JSON object lacking the expected keys.
 */
export type FaultKind =
  | '429'
  | '500'
  | 'hang'
  | 'truncated'
  | 'malformed'
  | 'empty_choices'
  | 'null_content'
  | 'html'
  | 'wrong_shape'

export interface FaultOptions {
  /** Share of requests that fail, 0..1. */
  rate: number
  kinds: FaultKind[]
  seed?: number
  /** Sent as the Retry-After header of 429 replies (seconds, may be fractional). Default 0.05. */
  retryAfterSeconds?: number
}

export class FaultPicker {
  private options: FaultOptions | undefined
  private state = 0

  constructor(options: FaultOptions | undefined) {
    this.configure(options)
  }

  configure(options: FaultOptions | undefined): void {
    this.options = options
    this.state = options?.seed ?? 1
  }

  get retryAfterSeconds(): number {
    return this.options?.retryAfterSeconds ?? 0.05
  }

  /** The fault for the next request, or undefined for a normal answer. */
  next(): FaultKind | undefined {
    const o = this.options
    if (o === undefined || o.rate <= 0 || o.kinds.length === 0) return undefined
    if (this.random() >= o.rate) return undefined
    return o.kinds[Math.floor(this.random() * o.kinds.length)]
  }

  private random(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}
