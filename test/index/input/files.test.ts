import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../src/errors.js'
import { compilePattern, formatCreationDate, listInputFiles } from '../../../src/index/input/files.js'
import { testdir } from '../../support/testdir.js'

describe('input files', () => {
  it('lists files recursively in sorted relative-path order', async () => {
    const dir = await testdir({
      'b.txt': '',
      'a/z.txt': '',
      'a/b/c.txt': '',
      'B.txt': '',
      'a.csv': '',
      '.hidden/x.txt': '',
    })
    expect(await listInputFiles(dir, compilePattern('.*\\.txt$'))).toEqual([
      '.hidden/x.txt',
      'B.txt',
      'a/b/c.txt',
      'a/z.txt',
      'b.txt',
    ])
    expect(await listInputFiles(`${dir}/missing`, compilePattern('.*'))).toEqual([])
  })

  it('accepts Python named groups and reports a bad pattern as input.file_pattern', () => {
    expect(compilePattern('(?P<year>\\d{4})-(?P=year)\\.txt$').exec('2024-2024.txt')?.groups?.year).toBe('2024')
    const error = (() => {
      try {
        compilePattern('[')
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).keyPath).toBe('input.file_pattern')
  })

  it('formats a time like Python strftime("%Y-%m-%d %H:%M:%S %z") in local time', () => {
    const time = new Date(2025, 8, 16, 16, 20, 36)
    const formatted = formatCreationDate(time)
    expect(formatted).toMatch(/^2025-09-16 16:20:36 [+-]\d{4}$/)
    const [, sign, hh, mm] = /([+-])(\d\d)(\d\d)$/.exec(formatted)!
    expect((sign === '-' ? 1 : -1) * (Number(hh) * 60 + Number(mm)) === time.getTimezoneOffset()).toBe(true)
  })
})
