import { describe, expect, it } from 'vitest'
import { normalizeName } from '../../src/text/normalize-name.js'

describe('normalizeName', () => {
  it('gives reference spellings of one entity the same key', () => {
    expect(normalizeName('The Ghost of Christmas Past')).toBe('ghost of christmas past')
    expect(normalizeName('GHOST OF CHRISTMAS PAST')).toBe('ghost of christmas past')
    expect(normalizeName('  the  ghost of christmas past. ')).toBe('ghost of christmas past')
  })

  it('folds compatibility forms with NFKC (full-width letters, ligatures, no-break spaces)', () => {
    expect(normalizeName('ＡＬＤＷＩＣＫ　Ｇａｚｅｔｔｅ')).toBe('aldwick gazette')
    expect(normalizeName('The Oﬃce')).toBe('office')
    expect(normalizeName('Kettle\u00a0Island')).toBe('kettle island')
  })

  it('drops stopwords only at the ends, and keeps a name made only of stopwords', () => {
    expect(normalizeName('A Tale of Two Cities')).toBe('tale of two cities')
    expect(normalizeName('Bank of the West and')).toBe('bank of the west')
    expect(normalizeName('The')).toBe('the')
    expect(normalizeName('The An A')).toBe('the an a')
  })

  it('removes punctuation: apostrophes join, other marks separate words', () => {
    expect(normalizeName("Fezziwig's Warehouse")).toBe('fezziwigs warehouse')
    expect(normalizeName('O’Brien')).toBe('obrien')
    expect(normalizeName('Jean-Luc "J.L." Picard!')).toBe('jean luc j l picard')
    expect(normalizeName('code XK-4471')).toBe('code xk 4471')
  })

  it('handles scripts without case or spaces', () => {
    expect(normalizeName('「東京タワー」')).toBe('東京タワー')
    expect(normalizeName('Москва, Россия')).toBe('москва россия')
    expect(normalizeName('ΟΔΥΣΣΕΥΣ')).toBe('οδυσσευς')
    expect(normalizeName('القاهرة.')).toBe('القاهرة')
  })

  it('is idempotent', () => {
    for (const name of ['The Ghost of Christmas Past', 'ＡＬＤＷＩＣＫ', "Fezziwig's", '「東京」']) {
      expect(normalizeName(normalizeName(name))).toBe(normalizeName(name))
    }
  })
})
