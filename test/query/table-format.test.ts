import { describe, expect, it } from 'vitest'
import {
  fillRows,
  float,
  formatCell,
  pythonFloat,
  quoteField,
  renderRow,
  renderTable,
} from '../../src/query/context/table-format.js'

describe('table format', () => {
  it('prints numbers as Python does', () => {
    expect(pythonFloat(8)).toBe('8.0')
    expect(pythonFloat(8.5)).toBe('8.5')
    expect(pythonFloat(1 / 3)).toBe('0.3333333333333333')
    expect(pythonFloat(1e-5)).toBe('1e-05')
    expect(pythonFloat(1.5e20)).toBe('1.5e+20')
    expect(formatCell(17)).toBe('17')
    expect(formatCell(float(14))).toBe('14.0')
    expect(formatCell(null)).toBe('')
  })

  it('quotes fields holding the separator, quotes or line breaks', () => {
    expect(quoteField('plain')).toBe('plain')
    expect(quoteField('a|b')).toBe('"a|b"')
    expect(quoteField('say "hi"')).toBe('"say ""hi"""')
    expect(quoteField('two\nlines')).toBe('"two\nlines"')
    expect(renderRow([1, 'A|B', float(2)])).toBe('1|"A|B"|2.0\n')
    expect(renderTable('Entities', ['id', 'entity'], ['1|X\n'])).toBe('-----Entities-----\nid|entity\n1|X\n')
  })

  it('fills under a budget, skipping rows that do not fit', () => {
    const count = (t: string) => t.length
    const fill = fillRows(['aaaa', 'bbbbbbbbbb', 'cc'], (s) => s, 7, count)
    expect(fill.kept).toEqual(['aaaa', 'cc'])
    expect(fill.tokens).toBe(6)
  })
})
