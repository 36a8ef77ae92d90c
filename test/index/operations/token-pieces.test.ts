/**
 * Piecewise encoding must give exactly the tokens (and so the chunks) of whole-text encoding: a
 * property test over seeded random texts mixing words, digits, punctuation, whitespace of every kind,
 * CJK, emoji (with ZWJ and skin-tone sequences), combining marks and contractions, cut into pieces
 * small enough that cuts fall everywhere a safe cut exists.
 */
import { describe, expect, it } from 'vitest'
import { splitOnTokens } from '../../../src/index/operations/chunk-text.js'
import { countDecodedWindow, encodeInPieces, nextSafeCut } from '../../../src/index/operations/token-pieces.js'
import { TIKTOKEN_ENCODINGS } from '../../../src/llm/encodings.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import { seededRng } from '../../../src/query/rng.js'

const ATOMS = [
  'the',
  'Scrooge',
  'MARLEY',
  "don't",
  "it's",
  "WE'LL",
  'naïve',
  'café',
  'e\u0301',
  'Ωμέγα',
  'Москва',
  '1843',
  '3.14159',
  '12,000',
  '٣٤٥',
  '½',
  '—',
  '...',
  '!?',
  '"quoted"',
  '(x)',
  '#tag',
  '/path/to',
  'a/b',
  '中文',
  '汉字测试',
  '。',
  '，',
  '日本語',
  'ひらがな',
  'カタカナ',
  '한국어',
  'ไทย',
  'العربية',
  'עברית',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '🇬🇧',
  '🧑‍💻',
  '\u{1D400}',
  '𝔘𝔫𝔦',
  '\uFEFF',
  '\u00A0',
  '\u3000',
  '\u2028',
  '\u200B',
  ' ',
  ' ',
  ' ',
  '  ',
  '   ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  ' \n ',
  '<|endoftext|>',
  "'s",
  "'",
  '-',
  '_',
]

function randomText(next: () => number, length: number): string {
  let text = ''
  while (text.length < length) {
    const atom = ATOMS[Math.floor(next() * ATOMS.length)]!
    text += atom
    if (next() < 0.6) text += ' '
  }
  return text
}

/** A long text cut into many small pieces: lots of cuts, whatever the text. */
function piecesOf(text: string, encoding: string, pieceLength: number): number[] {
  const out: number[] = []
  for (const piece of encodeInPieces(text, getTokenizer(encoding), pieceLength)) out.push(...piece)
  return out
}

// GRAPHRAG_SLOW_TESTS=1 tries twenty times as many texts, in all six encodings. By default one encoding
// per pre-tokenizer pattern: gpt2, p50k_base and p50k_edit split text with r50k_base's pattern.
const SLOW = Boolean(process.env.GRAPHRAG_SLOW_TESTS)
const TEXTS = SLOW ? 2000 : 100
const TIMEOUT = SLOW ? 900_000 : undefined
const ENCODINGS = SLOW ? TIKTOKEN_ENCODINGS : (['r50k_base', 'cl100k_base', 'o200k_base'] as const)

describe('encodeInPieces', () => {
  it(
    `gives the tokens of whole-text encoding for ${TEXTS} random texts in ${SLOW ? 'every tiktoken encoding' : 'each pre-tokenizer pattern'}`,
    () => {
      for (let seed = 1; seed <= TEXTS; seed++) {
        const next = seededRng(seed)
        const text = randomText(next, 20 + Math.floor(next() * 400))
        const pieceLength = 1 + Math.floor(next() * 40)
        for (const encoding of ENCODINGS) {
          const whole = Array.from(getTokenizer(encoding).encode(text))
          expect(piecesOf(text, encoding, pieceLength), `seed ${seed}, ${encoding}, pieces of ${pieceLength}`).toEqual(
            whole,
          )
        }
      }
    },
    TIMEOUT,
  )

  it('does cut: a long text goes to the tokenizer in many pieces, each ending at a safe cut', () => {
    const text = randomText(seededRng(7), 5000)
    const pieces = [...encodeInPieces(text, getTokenizer('o200k_base'), 50)]
    expect(pieces.length).toBeGreaterThan(50)
    // A cut before a space after non-whitespace, or before 。/， after an ideograph; none otherwise.
    expect(nextSafeCut('ab  cd', 1)).toBe(2)
    expect(nextSafeCut('ab  cd', 3)).toBe(6)
    expect(nextSafeCut('\uFEFF x', 1)).toBe(3)
    expect(nextSafeCut('中文。日本', 1)).toBe(2)
    expect(nextSafeCut('ひら。x', 1)).toBe(4)
  })

  it('hands a text without any safe cut to the tokenizer whole', () => {
    const text = '中文字'.repeat(100)
    expect([...encodeInPieces(text, getTokenizer('cl100k_base'), 10)]).toHaveLength(1)
  })
})

describe('token chunker over pieces', () => {
  it(
    'gives the chunks of whole-text chunking for random texts, sizes and overlaps',
    () => {
      for (let seed = 100_000; seed < 100_000 + TEXTS; seed++) {
        const next = seededRng(seed)
        const text = randomText(next, 50 + Math.floor(next() * 3000))
        const size = 1 + Math.floor(next() * 60)
        const overlap = Math.floor(next() * size)
        const pieceLength = 1 + Math.floor(next() * 200)
        const tokenizer = getTokenizer(next() < 0.5 ? 'o200k_base' : 'cl100k_base')
        expect(
          splitOnTokens(text, size, overlap, tokenizer, pieceLength),
          `seed ${seed}: size ${size}, overlap ${overlap}, pieces of ${pieceLength}`,
        ).toEqual(splitOnTokens(text, size, overlap, tokenizer, Number.POSITIVE_INFINITY))
      }
    },
    TIMEOUT,
  )

  it('cuts the same windows as the whole-text loop when the tokens end exactly at a window', () => {
    const tokenizer = getTokenizer('o200k_base')
    const text = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')
    const tokens = tokenizer.encode(text)
    for (const size of [tokens.length, tokens.length - 1, Math.floor(tokens.length / 2), 7]) {
      for (const pieceLength of [1, 3, 17]) {
        const expected: string[] = []
        for (let s = 0; s < tokens.length; s += size - 2) {
          const e = Math.min(s + size, tokens.length)
          expected.push(tokenizer.decode(tokens.subarray(s, e)))
          if (e === tokens.length) break
        }
        expect(splitOnTokens(text, size, 2, tokenizer, pieceLength)).toEqual(expected)
      }
    }
  })
})

describe('countDecodedWindow', () => {
  it(
    "counts a window's decoded text (after a prefix) as encoding it again does, for random texts and windows",
    () => {
      const prefixes = ['', 'title: x.\n', 'a', 'é ', '中']
      let fromCuts = 0
      for (let seed = 200_000; seed < 200_000 + 4 * TEXTS; seed++) {
        const next = seededRng(seed)
        const text = randomText(next, 50 + Math.floor(next() * 600))
        for (const encoding of ENCODINGS) {
          const tokenizer = getTokenizer(encoding)
          const tokens = tokenizer.encode(text)
          const start = Math.floor(next() * tokens.length)
          const window = tokens.subarray(start, start + 1 + Math.floor(next() * 80))
          const prefix = prefixes[Math.floor(next() * prefixes.length)]!
          const expected = tokenizer.count(prefix + tokenizer.decode(window))
          if (expected !== window.length + tokenizer.count(prefix)) fromCuts++
          expect(countDecodedWindow(prefix, window, tokenizer), `seed ${seed}, ${encoding}, prefix ${prefix}`).toBe(
            expected,
          )
        }
      }
      // The texts do exercise windows whose count is not simply their length.
      expect(fromCuts).toBeGreaterThan(TEXTS / 2)
    },
    TIMEOUT,
  )

  it('counts every window of a text exactly, also where a space follows whitespace that is not ASCII', () => {
    // o200k encodes "x\u3000  x" in 4 tokens but "x\u3000" and "  x" apart in 3 and 2: no cut after U+3000.
    const text = 'Marley was dead: to begin with.\u3000  There is no\u00a0 doubt whatever about that. '.repeat(20)
    const tokenizer = getTokenizer('o200k_base')
    const tokens = tokenizer.encode(text)
    for (let start = 0; start < tokens.length; start += 3) {
      const window = tokens.subarray(start, start + 40)
      expect(countDecodedWindow('', window, tokenizer), `window at ${start}`).toBe(
        tokenizer.count(tokenizer.decode(window)),
      )
    }
  })
})
