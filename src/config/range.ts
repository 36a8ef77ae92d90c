/** Numeric ranges of settings and CLI options: a leaf module, so the CLI's option parsers load nothing else. */

/**
 * Every numeric key declares its range: a value outside it (1e308 tokens per chunk, 1e20 parallel
 * requests) is refused with one message saying what is expected, instead of running out of memory
 * or hanging later.
 */
export interface Range {
  readonly min: number
  readonly max: number
}

/** "an integer from 1 to 10,000" / "a number from 0 to 1" (the message of every numeric key and CLI option). */
export function describeRange(integer: boolean, range: Range): string {
  const bound = (n: number) => (Number.isInteger(n) && Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n))
  return `${integer ? 'an integer' : 'a number'} from ${bound(range.min)} to ${bound(range.max)}`
}

export function inRange(value: unknown, integer: boolean, range: Range): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    value >= range.min &&
    value <= range.max
  )
}
