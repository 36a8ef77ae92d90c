import { describe, expect, it } from 'vitest'
import {
  DEFAULT_GENERIC_MODIFIERS,
  DEFAULT_GENERIC_NOUNS,
  DEFAULT_STOP_WORDS,
} from '../../../../src/config/sections/entity-resolution.js'
import { noiseReason, type NoiseRules } from '../../../../src/index/operations/entity-resolution/noise.js'

const base: NoiseRules = { minNameLength: 2, stopWords: new Set(DEFAULT_STOP_WORDS) }
const fast: NoiseRules = {
  ...base,
  generic: { modifiers: new Set(DEFAULT_GENERIC_MODIFIERS), nouns: new Set(DEFAULT_GENERIC_NOUNS), minFrequency: 20 },
}

describe('noise rules', () => {
  it('a name empty after normalisation is noise (not an empty-named entity)', () => {
    expect(noiseReason('--', 3, base)).toBe('empty')
    expect(noiseReason('!!!', 3, base)).toBe('empty')
    expect(noiseReason('   ', 3, base)).toBe('empty')
  })

  it('a name of digits and punctuation only is noise', () => {
    expect(noiseReason('1961', 3, base)).toBe('symbols')
    expect(noiseReason('12:30', 3, base)).toBe('symbols')
    expect(noiseReason('R2D2', 3, base)).toBeUndefined()
  })

  it('a name shorter than min_name_length is noise', () => {
    expect(noiseReason('X', 3, base)).toBe('too_short')
    expect(noiseReason('"Q."', 3, base)).toBe('too_short')
    expect(noiseReason('XI', 3, base)).toBeUndefined()
    expect(noiseReason('XI', 3, { ...base, minNameLength: 3 })).toBe('too_short')
  })

  it('a name made only of stop-words is noise', () => {
    expect(noiseReason('A', 3, { ...base, minNameLength: 1 })).toBe('stop_words')
    expect(noiseReason('THE', 3, base)).toBe('stop_words')
    expect(noiseReason('HIS OWN', 3, { ...base, stopWords: new Set(['his', 'own']) })).toBe('stop_words')
    expect(noiseReason('THE HE', 3, base)).toBe('stop_words')
    expect(noiseReason('THE HARBOUR', 3, base)).toBeUndefined()
  })

  it('fast method: a generic phrase below the frequency threshold is noise, a specific one is kept', () => {
    expect(noiseReason('FEW MINUTES', 2, fast)).toBe('generic')
    expect(noiseReason('END', 8, fast)).toBe('generic')
    expect(noiseReason('SAME FERRY', 2, fast)).toBe('generic')
    expect(noiseReason('HOLM END', 10, fast)).toBeUndefined()
    expect(noiseReason('FERRY', 8, fast)).toBeUndefined()
    // At the threshold a generic phrase is kept: it is frequent enough to matter.
    expect(noiseReason('END', 20, fast)).toBeUndefined()
    expect(noiseReason('END', 19, fast)).toBe('generic')
  })

  it('without generic rules (standard method) a generic phrase is kept', () => {
    expect(noiseReason('FEW MINUTES', 2, base)).toBeUndefined()
  })
})
