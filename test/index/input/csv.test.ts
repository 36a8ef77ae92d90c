import { describe, expect, it } from 'vitest'
import { csvRows, parseCsv } from '../../../src/index/input/csv.js'

describe('CSV parser (RFC 4180)', () => {
  it('splits plain records and fields', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ])
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
  })

  it('handles quoted fields with commas, embedded newlines and doubled quotes', () => {
    expect(parseCsv('x,y\n"a, b","line 1\nline 2"\n"say ""hi""",""\n')).toEqual([
      ['x', 'y'],
      ['a, b', 'line 1\nline 2'],
      ['say "hi"', ''],
    ])
  })

  it('keeps empty fields and treats a quote inside an unquoted field as text', () => {
    expect(parseCsv('a,,c\n5" pipe,x,\n')).toEqual([
      ['a', '', 'c'],
      ['5" pipe', 'x', ''],
    ])
  })

  it('skips blank lines', () => {
    expect(parseCsv('a\n\n1\n\n')).toEqual([['a'], ['1']])
  })

  it('rejects an unterminated quote, naming the line it starts on', () => {
    expect(() => parseCsv('a,b\n1,"open\nnever closed\n')).toThrow(/line 2/)
  })

  it('maps records to objects by header like DictReader, dropping a BOM from the header', () => {
    expect(csvRows('\uFEFFid,text\n1,hello\n2\n3,x,extra\n')).toEqual([
      { id: '1', text: 'hello' },
      { id: '2', text: null },
      { id: '3', text: 'x' },
    ])
    expect(csvRows('')).toEqual([])
  })
})
