import { describe, expect, it } from 'vitest'
import { InvalidArgumentError } from 'commander'
import { fraction, MAX_COMMUNITY_LEVEL, wholeNumber } from '../../src/cli/arguments.js'
import type { Declaration, Issues } from '../../src/config/fields.js'
import { SETTINGS } from '../../src/config/schema.js'
import { validateSettings } from '../../src/config/validate.js'

const errorsOf = (raw: unknown) => {
  const result = validateSettings(raw, { root: '/project' })
  return result.ok ? [] : result.errors
}

/** Every leaf key (`entries` of free-id mappings included), with its YAML path. */
function leaves(decl: Declaration, path: string): Array<[string, Declaration]> {
  const shape = decl.shape ?? decl.entries
  if (shape === undefined) return [[path, decl]]
  return Object.entries(shape).flatMap(([key, child]) => leaves(child, path === '' ? key : `${path}.${key}`))
}

const parse = (decl: Declaration, raw: unknown) => {
  const issues: Issues = { errors: [], warnings: [] }
  const value = decl.parse(raw, 'key', issues)
  return { value, errors: issues.errors }
}

describe('numeric settings and options have a type and a range', () => {
  it('refuses absurd sizes with one message saying what is expected', () => {
    expect(errorsOf({ chunking: { size: 1e308 } })).toEqual([
      'chunking.size: expected an integer from 1 to 10,000,000, got 1e+308',
    ])
    expect(errorsOf({ concurrent_requests: 1e20 })).toEqual([
      'concurrent_requests: expected an integer from 1 to 10,000, got 100000000000000000000',
    ])
    expect(errorsOf({ extract_graph: { max_gleanings: 1.5 } })).toEqual([
      'extract_graph.max_gleanings: expected an integer from 0 to 1000, got 1.5',
    ])
    expect(errorsOf({ local_search: { top_k_entities: 10, text_unit_prop: 2 } })).toEqual([
      'local_search.text_unit_prop: expected a number from 0 to 1, got 2',
    ])
  })

  it('every numeric key, in every section, refuses 1e308 and -1e308', () => {
    const numeric = leaves(SETTINGS as Declaration, '').filter(([, decl]) => {
      if (Array.isArray(decl.default))
        return decl.default.length > 0 && decl.default.every((v) => typeof v === 'number')
      const { value, errors } = parse(decl, 5)
      return errors.length === 0 && value === 5
    })
    // The check below must see the numbers (chunking.size, the model sections' retry and rate limits, ...).
    expect(numeric.length).toBeGreaterThan(90)
    const accepted = numeric.flatMap(([path, decl]) =>
      [1e308, -1e308]
        .map((n) => (Array.isArray(decl.default) ? [n] : n))
        .filter((raw) => parse(decl, raw).errors.length === 0)
        .map((raw) => `${path}: ${JSON.stringify(raw)}`),
    )
    expect(accepted).toEqual([])
  })

  it('refuses a community level of 99999 or 1e308 and a fractional one on the command line', () => {
    const level = wholeNumber(0, MAX_COMMUNITY_LEVEL)
    expect(level('3')).toBe(3)
    for (const bad of ['99999', '1e308', '1.5', '-1', '', 'two'])
      expect(() => level(bad), bad).toThrow(new InvalidArgumentError('expected an integer from 0 to 100'))
    expect(() => fraction('1.01')).toThrow('expected a number from 0 to 1')
  })
})
