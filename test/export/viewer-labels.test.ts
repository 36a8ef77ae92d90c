/** Where the graph viewer draws a node's label: right of the node, or left of it when it would leave the canvas. */
import { describe, expect, it } from 'vitest'
import { labelLeft } from '../../src/export/viewer/labels.js'

describe('labelLeft', () => {
  it('draws a label right of its node when it fits, 3 px past the disc', () => {
    expect(labelLeft(100, 5, 60, 400)).toBe(108)
    // Exactly reaching the edge still fits.
    expect(labelLeft(100, 5, 292, 400)).toBe(108)
  })

  it('draws it left of the node when it would overflow on the right', () => {
    expect(labelLeft(380, 5, 60, 400)).toBe(380 - 5 - 3 - 60)
    expect(labelLeft(100, 5, 293, 400)).toBe(0)
  })

  it('never starts it left of the canvas', () => {
    expect(labelLeft(30, 5, 200, 100)).toBe(0)
  })
})
