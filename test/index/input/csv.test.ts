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

describe('parseCsv (csv-parse) on tricky input, as the hand-written parser it replaced read it', () => {
  it.each([
    [
      'quoted commas and doubled quotes',
      'a,b\n"x, y","q""uote"\n',
      [
        ['a', 'b'],
        ['x, y', 'q"uote'],
      ],
    ],
    [
      'a newline inside quotes',
      'a,b\n"multi\nline",2\n',
      [
        ['a', 'b'],
        ['multi\nline', '2'],
      ],
    ],
    ['blank lines between records', 'a\n\n\nb\n', [['a'], ['b']]],
    [
      'a quote inside an unquoted field',
      'a,b\nab"c,d\n',
      [
        ['a', 'b'],
        ['ab"c', 'd'],
      ],
    ],
    ['short and long rows', 'a,b\n1\n1,2,3\n', [['a', 'b'], ['1'], ['1', '2', '3']]],
    [
      'no final newline',
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'an empty quoted field and spaces',
      'a,b\n"",x\n x ," y"\n',
      [
        ['a', 'b'],
        ['', 'x'],
        [' x ', ' y'],
      ],
    ],
    ['a BOM (kept here; csvRows drops it from the header)', '\uFEFFa\n1\n', [['\uFEFFa'], ['1']]],
  ])('%s', (_name, text, records) => {
    expect(parseCsv(text)).toEqual(records)
  })

  it('names the line an unterminated quote starts on, after blank lines and multi-byte text', () => {
    expect(() => parseCsv('a,b\n\n\nÿé,y\n1,"open\nnever closed\n\n')).toThrow(
      'unterminated quoted field starting on line 5',
    )
  })
})
