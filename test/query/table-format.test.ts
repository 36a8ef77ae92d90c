import { describe, expect, it } from 'vitest'
import { type Cell, fillRows, float, renderRow, renderTable } from '../../src/query/context/table-format.js'

/** One cell as a rendered row prints it. */
const cell = (value: Cell): string => renderRow([value]).slice(0, -1)

describe('table format', () => {
  it('prints numbers as Python does', () => {
    expect(cell(float(8))).toBe('8.0')
    expect(cell(float(8.5))).toBe('8.5')
    expect(cell(float(1 / 3))).toBe('0.3333333333333333')
    expect(cell(float(1e-5))).toBe('1e-05')
    expect(cell(float(1.5e20))).toBe('1.5e+20')
    expect(cell(17)).toBe('17')
    expect(cell(float(14))).toBe('14.0')
    expect(cell(null)).toBe('')
  })

  it('quotes fields holding the separator, quotes or line breaks', () => {
    expect(cell('plain')).toBe('plain')
    expect(cell('a|b')).toBe('"a|b"')
    expect(cell('say "hi"')).toBe('"say ""hi"""')
    expect(cell('two\nlines')).toBe('"two\nlines"')
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
