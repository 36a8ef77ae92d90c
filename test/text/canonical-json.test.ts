import { describe, expect, it } from 'vitest'
import { canonicalJson } from '../../src/text/canonical-json.js'

describe('canonicalJson', () => {
  it('sorts keys at every level by string order, integer-like keys included', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 2 }, '22': 0, '100': 0 })).toBe(
      '{"100":0,"22":0,"a":{"c":2,"d":[2,{"y":2,"z":1}]},"b":1}',
    )
  })

  it('leaves out undefined and function properties, and writes undefined array items as null, as JSON does', () => {
    expect(canonicalJson({ a: undefined, f: () => 1, l: [undefined, 1] })).toBe('{"l":[null,1]}')
    expect(canonicalJson(undefined)).toBe('null')
  })

  it('applies toJSON, so a Date is its ISO text (not an empty object)', () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2026, 10, 26)) })).toBe('{"at":"2026-11-26T00:00:00.000Z"}')
  })
})
