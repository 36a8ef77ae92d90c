// The fake server's usage counts: exact cl100k counts, whether a text is counted whole or sentence by
// sentence from what it remembers.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { seededRng } from '../../src/query/rng.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { countTokens } from '../support/fake-llm/tokens.js'

const cl100k = getTokenizer('cl100k_base')

/** Short random strings over characters that meet at a ". " cut in every way the pre-tokenizer cares about. */
function randomTexts(count: number): string[] {
  const random = seededRng(7)
  const alphabet = [
    'a',
    'Bc',
    '.',
    '.',
    ' ',
    ' ',
    '  ',
    '\n',
    '\t',
    "'s",
    '7',
    '42',
    'é',
    '中文',
    '😀',
    '\u00a0',
    '\u3000',
    '!',
    '?',
    '\r\n',
    '...',
    '1,',
    '"Q"',
    '\n\n',
    ' \n',
  ]
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(random() * 14)
    return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
  })
}

describe('fake server token counts', () => {
  it('counts short and long texts exactly, the second time as the first', () => {
    const long = 'The ghost of Christmas past walked the streets of London. '.repeat(20)
    const other = `${long}And then the bells rang out.`
    for (const text of [
      '',
      'short text',
      long,
      other,
      long,
      other,
      '. ',
      ' . ',
      'end.  ',
      '.  \n x',
      'a \nB',
      'a\n\nB',
      'a\n\n',
    ])
      expect(countTokens(text), JSON.stringify(text.slice(-30))).toBe(cl100k.count(text))
    expect(countTokens(other)).toBeGreaterThan(countTokens(long))
  })

  it('adds up sentence counts to the whole text count for every way a ". " cut can sit', () => {
    const texts = randomTexts(10_000)
    const wrong = texts.filter((text) => countTokens(text) !== cl100k.count(text))
    expect(wrong.map((t) => JSON.stringify(t)).slice(0, 5)).toEqual([])
    // Each again, now from what was remembered.
    expect(texts.filter((text) => countTokens(text) !== cl100k.count(text))).toEqual([])
  })

  it('counts a filled extraction prompt exactly, also once its template sentences are remembered', () => {
    const template = readFileSync(new URL('../../prompts/extract_graph.txt', import.meta.url), 'utf8')
    const fill = (text: string) => template.replaceAll('{input_text}', text)
    const units = [
      'Katenpel Orwenwen quietly Zanmirpel sold in in morning often Vortentha for. Zanmirpel Grizanzanvor city.',
      ' Baspelwen carried wrote Kaduntha with before Kaduntha warned. \n\n Quowenquo new followed quietly.  Two spaces.',
      'ends in the middle of a sent',
    ]
    for (const unit of units) expect(countTokens(fill(unit))).toBe(cl100k.count(fill(unit)))
  })
})
