/** Parsers for command-line option values, shared by the commands: a bad value is a usage error naming what was expected. */
import { InvalidArgumentError } from '../vendor/commander.js'
import { describeRange, inRange, type Range } from '../config/range.js'

/** One of `values`, typed as that union. */
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}`)
    return value as T
  }

/** An integer from `min` to `max`, with the message the settings give for a number out of range. */
export const wholeNumber =
  (min: number, max: number) =>
  (value: string): number =>
    numberIn(value, true, { min, max })

/** A number from 0 to 1. */
export const fraction = (value: string): number => numberIn(value, false, { min: 0, max: 1 })

/** A finite number above 0 (a weight). */
export function positiveNumber(value: string): number {
  const n = asNumber(value)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a number above 0, got "${value}"`)
  return n
}

/** The option's number; NaN for an empty value (Number('') would be 0). */
const asNumber = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value))

function numberIn(value: string, integer: boolean, range: Range): number {
  const n = asNumber(value)
  if (!inRange(n, integer, range)) throw new InvalidArgumentError(`expected ${describeRange(integer, range)}`)
  return n
}

/** Deepest community level an option accepts: hierarchies are a handful of levels deep, so more is a typo. */
export const MAX_COMMUNITY_LEVEL = 100
