/**
 * Noise control: names that are not entities. Each rule gives a reason, counted in stats.json
 * (docs/entity-resolution.md lists the rules and their settings).
 */
import { normalizeName } from '../../../text/normalize-name.js'

export const NOISE_REASONS = ['empty', 'symbols', 'too_short', 'stop_words', 'generic'] as const
export type NoiseReason = (typeof NOISE_REASONS)[number]

export interface NoiseRules {
  readonly minNameLength: number
  readonly stopWords: ReadonlySet<string>
  /** Fast method only: generic noun phrases below a frequency. */
  readonly generic?: {
    readonly modifiers: ReadonlySet<string>
    readonly nouns: ReadonlySet<string>
    readonly minFrequency: number
  }
}

const LETTER = /\p{L}/u

/** Why `title` (found in `frequency` text units) is noise, or undefined when it is kept. */
export function noiseReason(title: string, frequency: number, rules: NoiseRules): NoiseReason | undefined {
  const key = normalizeName(title)
  if (key === '') return 'empty'
  if (!LETTER.test(key)) return 'symbols'
  if ([...key.replaceAll(' ', '')].length < rules.minNameLength) return 'too_short'
  const words = key.split(' ')
  if (words.every((w) => rules.stopWords.has(w))) return 'stop_words'
  if (rules.generic !== undefined && frequency < rules.generic.minFrequency && isGeneric(words, rules.generic))
    return 'generic'
  return undefined
}

/** "same ferry" (a generic first word), "few minutes" and "end" (only generic words). */
function isGeneric(words: readonly string[], generic: NonNullable<NoiseRules['generic']>): boolean {
  if (generic.modifiers.has(words[0]!)) return true
  return words.every((w) => generic.nouns.has(w) || generic.modifiers.has(w))
}
