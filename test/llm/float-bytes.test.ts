// Vectors read from little-endian float bytes: exact values, at any offset of the bytes given.
import { describe, expect, it } from 'vitest'
import { floatsFromBytes } from '../../src/llm/float-bytes.js'

const values = [0.5, -1.25, 1 / 3, -0, Number.POSITIVE_INFINITY, 1e-40, 123456.789, -2.5e-300]

/** The bytes written value by value, placed at `offset` inside a larger buffer (a pool slice's situation). */
function bytesAt(width: 4 | 8, offset: number): Buffer {
  const outer = Buffer.alloc(offset + width * values.length + 3)
  values.forEach((v, i) => {
    if (width === 4) outer.writeFloatLE(v, offset + i * 4)
    else outer.writeDoubleLE(v, offset + i * 8)
  })
  return outer.subarray(offset, offset + width * values.length)
}

describe('floatsFromBytes', () => {
  it('reads float32 and float64 values exactly, whatever the alignment of the bytes', () => {
    for (const offset of [0, 1, 2, 3, 5, 8]) {
      expect(floatsFromBytes(bytesAt(4, offset), 4)).toEqual(values.map((v) => Math.fround(v)))
      expect(floatsFromBytes(bytesAt(8, offset), 8)).toEqual(values)
    }
    expect(Object.is(floatsFromBytes(bytesAt(8, 3), 8)[3], -0)).toBe(true)
    expect(floatsFromBytes(Buffer.alloc(0), 4)).toEqual([])
  })

  it('gives a plain array of numbers (what the callers store and compare)', () => {
    const read = floatsFromBytes(bytesAt(4, 1), 4)
    expect(Array.isArray(read)).toBe(true)
    expect(read).toHaveLength(values.length)
  })
})
