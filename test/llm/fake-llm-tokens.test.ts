// The fake server's usage counts: exact cl100k counts, also for the long texts it remembers.
import { describe, expect, it } from 'vitest'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { countTokens } from '../support/fake-llm/tokens.js'

describe('fake server token counts', () => {
  it('counts short and long texts exactly, the second time as the first', () => {
    const cl100k = getTokenizer('cl100k_base')
    const long = 'The ghost of Christmas past walked the streets of London. '.repeat(20)
    const other = `${long}And then the bells rang out.`
    for (const text of ['', 'short text', long, other, long, other])
      expect(countTokens(text), text.slice(-30)).toBe(cl100k.count(text))
    expect(countTokens(other)).toBeGreaterThan(countTokens(long))
  })
})
