import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import { DOCUMENTS } from '../../../src/model/documents.js'
import { BASE_TEXT_UNITS } from '../../../src/model/text-units.js'
import {
  chunkDocument,
  chunkDocuments,
  metadataPrefix,
  splitOnTokens,
} from '../../../src/index/operations/chunk-text.js'
import { splitSentences, stripPython } from '../../../src/index/operations/split-sentences.js'
import { decodeParquet } from '../../../src/storage/parquet.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const sha512 = (text: string): string => createHash('sha512').update(text, 'utf8').digest('hex')
const o200k = getTokenizer('o200k_base')
const TOKENS = { type: 'tokens', size: 1200, overlap: 100, prepend_metadata: null } as const

function doc(text: string, extra: Partial<{ title: string; raw_data: Record<string, never> | null }> = {}) {
  return {
    id: sha512(text),
    title: 'doc.txt',
    text,
    creation_date: '2026-01-01 00:00:00 +0000',
    raw_data: null,
    ...extra,
  }
}

describeShared('golden: Christmas Carol text units', () => {
  it('reproduces all 42 reference rows (id, text, n_tokens) byte for byte', () => {
    const dir = sharedPath('reference', 'christmas-carol-index')
    const documents = decodeParquet(DOCUMENTS, readFileSync(`${dir}/documents.parquet`), 'documents.parquet')
    const expected = decodeParquet(BASE_TEXT_UNITS, readFileSync(`${dir}/text_units.parquet`), 'text_units.parquet')
    expect(documents).toHaveLength(1)
    const [document] = documents
    expect(document!.text.charCodeAt(0)).toBe(0xfeff)
    expect(document!.id).toBe(sha512(document!.text))
    const units = chunkDocuments(documents, { ...TOKENS, prepend_metadata: ['title'] }, o200k)
    expect(units).toHaveLength(42)
    expect(units.map((u) => [u.id, u.text, u.n_tokens, u.document_id])).toEqual(
      expected.map((u) => [u.id, u.text, u.n_tokens, document!.id]),
    )
    expect(units[0]!.text.startsWith('title: a-christmas-carol.txt.\n')).toBe(true)
  })
})

describe('token chunker', () => {
  it('cuts windows of size advancing by size - overlap and stops at the window reaching the end', () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')
    const tokens = o200k.encode(text)
    const chunks = splitOnTokens(text, 10, 3, o200k)
    const expected: string[] = []
    for (let s = 0; s < tokens.length; s += 7) {
      const e = Math.min(s + 10, tokens.length)
      expected.push(o200k.decode(tokens.subarray(s, e)))
      if (e === tokens.length) break
    }
    expect(chunks).toEqual(expected)
    expect(chunks.join('').length).toBeGreaterThan(text.length)
  })

  it('gives no chunks for empty text and one for short text, without trimming', () => {
    expect(chunkDocument(doc(''), TOKENS, o200k)).toEqual([])
    const [unit] = chunkDocument(doc('  short text \n'), TOKENS, o200k)
    expect(unit).toEqual({
      id: sha512('  short text \n'),
      document_id: sha512('  short text \n'),
      text: '  short text \n',
      n_tokens: o200k.count('  short text \n'),
    })
  })

  it('replaces a multi-byte character split between windows with U+FFFD', () => {
    // o200k encodes 齉 (3 UTF-8 bytes) as two tokens, so one-token windows each hold part of it.
    const text = '齉齉齉'
    expect(o200k.encode('齉')).toHaveLength(2)
    const halves = splitOnTokens(text, 1, 0, o200k)
    expect(halves).toHaveLength(o200k.encode(text).length)
    expect(halves.every((c) => c === '\uFFFD')).toBe(true)
    // Windows of whole characters decode back to them.
    expect(splitOnTokens('齉', 2, 0, o200k)).toEqual(['齉'])
  })

  it('rejects an overlap not smaller than the size', () => {
    expect(() => splitOnTokens('some text', 10, 10, o200k)).toThrow(/chunking\.overlap/)
  })

  it('works with any tiktoken encoding by name', () => {
    const cl100k = getTokenizer('cl100k_base')
    const units = chunkDocument(
      doc('The quick brown fox jumps over the lazy dog. '.repeat(30)),
      { ...TOKENS, size: 50, overlap: 5 },
      cl100k,
    )
    expect(units.length).toBeGreaterThan(1)
    expect(units.every((u) => u.n_tokens <= 50)).toBe(true)
    expect(() => getTokenizer('no_such_encoding')).toThrow(/no_such_encoding/)
  })
})

describe('prepend_metadata', () => {
  const raw = { author: 'Dickens', meta: { year: 1843, tags: ['ghost', 'winter'] }, empty: null }
  const source = { ...doc('Marley was dead: to begin with.'), title: 'carol', raw_data: raw as never }

  it('writes key: value. lines for document fields and dot paths into raw_data, skipping absent values', () => {
    expect(metadataPrefix(source, ['title', 'author', 'meta.year', 'meta.tags', 'empty', 'missing', 'meta.nope'])).toBe(
      "title: carol.\nauthor: Dickens.\nmeta.year: 1843.\nmeta.tags: ['ghost', 'winter'].\n",
    )
  })

  it('follows dot paths into nested objects stored as JSON text by the documents table', () => {
    const stored = { ...source, raw_data: { meta: JSON.stringify({ year: 1843 }), note: '{not json' } as never }
    expect(metadataPrefix(stored, ['meta.year', 'note.x', 'note'])).toBe('meta.year: 1843.\nnote: {not json.\n')
  })

  it('does not count the prefix against size but counts it in n_tokens; the id covers the prefixed text', () => {
    const text = 'word '.repeat(100)
    const plain = chunkDocument({ ...source, text }, { ...TOKENS, size: 20, overlap: 0 }, o200k)
    const prefixed = chunkDocument(
      { ...source, text },
      { ...TOKENS, size: 20, overlap: 0, prepend_metadata: ['title'] },
      o200k,
    )
    expect(prefixed).toHaveLength(plain.length)
    prefixed.forEach((unit, i) => {
      expect(unit.text).toBe(`title: carol.\n${plain[i]!.text}`)
      expect(unit.n_tokens).toBe(o200k.count(unit.text))
      expect(unit.n_tokens).toBeGreaterThan(plain[i]!.n_tokens)
      expect(unit.id).toBe(sha512(unit.text))
    })
  })
})

describe('sentence chunker', () => {
  it('gives one unit per sentence of the stripped text, ignoring size', () => {
    const units = chunkDocument(
      doc('  One sentence here. Another one! And a third?  '),
      { ...TOKENS, type: 'sentence', size: 1 },
      o200k,
    )
    expect(units.map((u) => u.text)).toEqual(['One sentence here.', 'Another one!', 'And a third?'])
    expect(units.map((u) => u.n_tokens)).toEqual(units.map((u) => o200k.count(u.text)))
  })

  it('keeps titles, initials, abbreviations, decimals and lower-case continuations inside a sentence', () => {
    const text =
      'Mr. Scrooge met Dr. Watson on St. James Street at 3.30 p.m. yesterday. J. R. R. Tolkien wrote it, e.g. in 1937. ' +
      'The U.S. economy grew by 2.5 percent. "Is it true?" she asked. "Yes." He nodded... Then he left. Wait... what? ' +
      'It cost $4.50 (approx. five). The end'
    expect(splitSentences(text)).toEqual([
      'Mr. Scrooge met Dr. Watson on St. James Street at 3.30 p.m. yesterday.',
      'J. R. R. Tolkien wrote it, e.g. in 1937.',
      'The U.S. economy grew by 2.5 percent.',
      '"Is it true?" she asked.',
      '"Yes."',
      'He nodded...',
      'Then he left.',
      'Wait... what?',
      'It cost $4.50 (approx. five).',
      'The end',
    ])
  })

  it('splits across newlines and keeps a leading BOM as Python strip() does', () => {
    expect(splitSentences('\uFEFFFirst line.\n\nSecond paragraph.')).toEqual(['\uFEFFFirst line.', 'Second paragraph.'])
    expect(stripPython(' \uFEFFx \n')).toBe('\uFEFFx')
    expect(splitSentences('   ')).toEqual([])
  })
})
