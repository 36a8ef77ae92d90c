import { describe, expect, it } from 'vitest'
import { entityKey, singularWord } from '../../../../src/text/entity-key.js'

describe('entity resolution key', () => {
  it('folds case, punctuation and leading articles', () => {
    const keys = ['FERRY COOPERATIVE', 'FERRY-COOPERATIVE', 'THE FERRY COOPERATIVE', 'Ferry Cooperative.'].map((n) =>
      entityKey(n, true),
    )
    expect(new Set(keys)).toEqual(new Set(['ferry cooperative']))
  })

  it('folds a simple plural of the last word only, when plurals are on', () => {
    expect(entityKey('FISHING BOATS', true)).toBe('fishing boat')
    expect(entityKey('FISHING BOATS', false)).toBe('fishing boats')
    expect(entityKey('FERRIES', true)).toBe('ferry')
    expect(entityKey('CHURCHES', true)).toBe('church')
    expect(entityKey('BOXES', true)).toBe('box')
    expect(entityKey('ROCKS OF TERN', true)).toBe('rocks of tern')
  })

  it('keeps words that only look plural', () => {
    for (const word of ['gas', 'bus', 'glass', 'jonas', 'thomas', 'analysis', 'status'])
      expect(singularWord(word)).toBe(word)
    expect(singularWord('pies')).toBe('pie')
    expect(singularWord('cities')).toBe('city')
    expect(singularWord('rocks')).toBe('rock')
  })
})
