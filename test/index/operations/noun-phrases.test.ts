import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_EXCLUDE_NOUNS } from '../../../src/config/sections/workflows.js'
import { createNounPhraseExtractor, extractNounPhrases } from '../../../src/index/operations/noun-phrases/index.js'
import { normalizePhrase, pythonListRepr } from '../../../src/text/noun-phrases/normalize.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const OPTIONS = {
  exclude_nouns: [...DEFAULT_EXCLUDE_NOUNS],
  max_word_length: 15,
  word_delimiter: ' ',
  include_named_entities: true,
}

describe('normalizePhrase (reference filter)', () => {
  const none = new Set<string>()
  const excluded = new Set(['STUFF', 'THING'])
  it('keeps multi-word phrases upper-cased and joined by the delimiter', () => {
    expect(normalizePhrase(['Christmas', 'dinner'], none, excluded, OPTIONS)).toBe('CHRISTMAS DINNER')
    expect(normalizePhrase(['interest', 'rates'], none, excluded, { ...OPTIONS, word_delimiter: '_' })).toBe(
      'INTEREST_RATES',
    )
  })
  it('keeps a single word only when it is a proper noun or a hyphenated compound', () => {
    expect(normalizePhrase(['nephew'], none, excluded, OPTIONS)).toBeUndefined()
    expect(normalizePhrase(['Scrooge'], new Set(['SCROOGE']), excluded, OPTIONS)).toBe('SCROOGE')
    expect(
      normalizePhrase(['Scrooge'], new Set(['SCROOGE']), excluded, { ...OPTIONS, include_named_entities: false }),
    ).toBeUndefined()
    expect(normalizePhrase(['short-term'], none, excluded, OPTIONS)).toBe('SHORT-TERM')
  })
  it('drops excluded nouns before deciding, and rejects non-ASCII words, punctuation and long words', () => {
    expect(normalizePhrase(['old', 'stuff'], none, excluded, OPTIONS)).toBeUndefined()
    expect(normalizePhrase(['stuff', 'Marley'], new Set(['MARLEY']), excluded, OPTIONS)).toBe('MARLEY')
    expect(normalizePhrase(['Mr.', 'Scrooge'], new Set(['SCROOGE']), excluded, OPTIONS)).toBeUndefined()
    expect(normalizePhrase(['café', 'owner'], none, excluded, OPTIONS)).toBeUndefined()
    expect(normalizePhrase(['incomprehensibilities', 'x'], none, excluded, OPTIONS)).toBeUndefined()
  })
  it('renders the exclusion list as Python would in the cache key', () => {
    expect(pythonListRepr(['stuff', "o'k"])).toBe("['STUFF', 'O\\'K']")
  })
})

describe('wink noun-phrase extractor', () => {
  const extractor = createNounPhraseExtractor(OPTIONS)
  it('finds proper names and adjective-noun phrases, including "Christmas" (NER off)', () => {
    const phrases = extractor.extract(
      "Mr. Scrooge's nephew asked old Fezziwig and Bob Cratchit to a Christmas dinner, but Ebenezer Scrooge refused. Tiny Tim said God bless us!",
    )
    expect(phrases).toEqual(['OLD FEZZIWIG', 'BOB CRATCHIT', 'CHRISTMAS DINNER', 'EBENEZER SCROOGE', 'TINY TIM', 'GOD'])
  })
  it('re-joins hyphenated words that wink splits', () => {
    expect(extractor.extract('The Federal Reserve raised short-term interest rates by a quarter point.')).toEqual([
      'FEDERAL RESERVE',
      'SHORT-TERM INTEREST RATES',
      'QUARTER POINT',
    ])
  })
  it('returns unique phrases in order of first occurrence, deterministically', () => {
    const text = 'Bob Cratchit smiled. Bob Cratchit laughed at the Christmas dinner.'
    expect(extractor.extract(text)).toEqual(['BOB CRATCHIT', 'CHRISTMAS DINNER'])
    expect(extractor.extract(text)).toEqual(extractor.extract(text))
  })
  it('has a key naming the extractor and its settings', () => {
    expect(extractor.key).toBe(`wink_en_${pythonListRepr(OPTIONS.exclude_nouns)}_15_ _ne`)
  })
})

describe('extractNounPhrases cache', () => {
  it('stores phrases under sha512(text + key) and reuses them', async () => {
    const cache = new MemoryKeyValueStore()
    let calls = 0
    const extractor = { key: 'k', extract: (text: string) => (calls++, [text.toUpperCase()]) }
    const units = [
      { id: 'a', text: 'one' },
      { id: 'b', text: 'two' },
    ]
    const hits: boolean[] = []
    const first = await extractNounPhrases(units, extractor, cache, (hit) => hits.push(hit))
    const second = await extractNounPhrases(units, extractor, cache, (hit) => hits.push(hit))
    expect(first).toEqual([
      { id: 'a', phrases: ['ONE'] },
      { id: 'b', phrases: ['TWO'] },
    ])
    expect(second).toEqual(first)
    expect(calls).toBe(2)
    expect(hits).toEqual([false, false, true, true])
    // The reference's key: sha512 of the text followed by the extractor's key.
    expect(await cache.get(createHash('sha512').update('onek').digest('hex'))).toBe('["ONE"]')
  })
})

describeShared('wink extractor on A Christmas Carol', () => {
  it('finds the main characters', () => {
    const text = readFileSync(sharedPath('corpora', 'a-christmas-carol.txt'), 'utf8')
    const extractor = createNounPhraseExtractor(OPTIONS)
    const counts = new Map<string, number>()
    const chunk = 5000
    for (let i = 0; i < text.length; i += chunk) {
      for (const p of extractor.extract(text.slice(i, i + chunk))) counts.set(p, (counts.get(p) ?? 0) + 1)
    }
    for (const name of ['SCROOGE', 'BOB CRATCHIT', 'MARLEY', 'TINY TIM', 'FEZZIWIG', 'CHRISTMAS']) {
      expect(counts.get(name), name).toBeGreaterThan(1)
    }
  })
})
