import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../src/errors.js'
import {
  assertTextual,
  normaliseNewlines,
  readText,
  textDecoderFor,
  UnreadableTextError,
} from '../../../src/index/input/decode-text.js'

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values)
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

describe('text decoding', () => {
  it('keeps a leading UTF-8 BOM as U+FEFF with utf-8 and drops it with utf-8-sig', () => {
    const withBom = bytes(0xef, 0xbb, 0xbf, 0x68, 0x69)
    expect(textDecoderFor(null)(withBom)).toBe('\uFEFFhi')
    expect(textDecoderFor('utf-8')(withBom)).toBe('\uFEFFhi')
    expect(textDecoderFor('UTF_8_SIG')(withBom)).toBe('hi')
  })

  it('rejects invalid UTF-8 with the line of the first bad byte', () => {
    const decode = textDecoderFor('utf-8')
    expect(() => decode(bytes(...utf8('ok\nstill ok\n'), 0xff, 0x41))).toThrow(/not valid UTF-8 \(line 3\)/)
    expect(() => decode(bytes(0x41, 0xe2, 0x82))).toThrow(UnreadableTextError)
  })

  it('decodes latin1 byte for byte (0x80-0x9F included), utf-16le/be, utf-16 with a BOM and ascii, cp1252 and other ICU encodings', () => {
    expect(textDecoderFor('latin1')(bytes(0x43, 0x61, 0x66, 0xe9, 0x80))).toBe('Caf\u00e9\u0080')
    expect(textDecoderFor('iso-8859-1')(bytes(0xe9))).toBe('\u00e9')
    expect(textDecoderFor('utf-16le')(bytes(0x68, 0x00, 0x69, 0x00))).toBe('hi')
    expect(textDecoderFor('utf-16be')(bytes(0x00, 0x68))).toBe('h')
    expect(textDecoderFor('utf-16')(bytes(0xfe, 0xff, 0x00, 0x68))).toBe('h')
    expect(textDecoderFor('utf-16')(bytes(0xff, 0xfe, 0x68, 0x00))).toBe('h')
    expect(textDecoderFor('ascii')(bytes(0x41))).toBe('A')
    expect(() => textDecoderFor('ascii')(bytes(0xe9))).toThrow(/ASCII/)
    expect(textDecoderFor('cp1252')(bytes(0x80, 0x93, 0xe9))).toBe('\u20ac\u201c\u00e9')
    expect(() => textDecoderFor('cp1252')(bytes(0x81))).toThrow(/cp1252/)
    expect(textDecoderFor('iso-8859-2')(bytes(0xa3))).toBe('\u0141')
  })

  it('refuses an unknown encoding name as a settings error', () => {
    expect(() => textDecoderFor('klingon-8')).toThrow(ConfigError)
  })

  it('normalises CRLF and lone CR to LF', () => {
    expect(normaliseNewlines('a\r\nb\rc\n\r\n')).toBe('a\nb\nc\n\n')
    expect(readText(utf8('\uFEFFx\r\ny'), textDecoderFor(null))).toBe('\uFEFFx\ny')
  })

  it('flags binary content: NUL characters or many control characters', () => {
    expect(() => assertTextual('abc\u0000def')).toThrow(/binary file \(NUL/)
    expect(() => assertTextual('\u0001\u0002\u0003abcdefgh')).toThrow(/binary file/)
    expect(() => assertTextual('tabs\tand\nnewlines and a form feed\f')).not.toThrow()
    expect(() => assertTextual('')).not.toThrow()
  })
})
