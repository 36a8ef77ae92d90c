/** Parsers for command-line option values, shared by the commands: a bad value is a usage error naming what was expected. */
import { InvalidArgumentError } from 'commander'

/** One of `values`, typed as that union. */
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}`)
    return value as T
  }

/** A whole number of at least `min`. */
export const wholeNumber =
  (min: number) =>
  (value: string): number => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`)
    return n
  }

/** A number from 0 to 1. */
export function fraction(value: string): number {
  const n = Number(value)
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError('expected a number from 0 to 1')
  return n
}
