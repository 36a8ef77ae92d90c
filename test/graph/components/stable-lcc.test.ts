// Stable LCC and the Python-compatible name helpers behind it (GraphRAG graphs/stable_lcc.py).
import { describe, expect, it } from 'vitest'
import { stableLargestConnectedComponent } from '../../../src/graph/components/index.js'
import { compareCodePoints, htmlUnescape, normalizeNodeName, pythonStrip } from '../../../src/text/names.js'

describe('Python string semantics', () => {
  it('unescapes like html.unescape', () => {
    expect(htmlUnescape('a &amp; b')).toBe('a & b')
    expect(htmlUnescape('&lt;&gt;&quot;&#39;&#x41;&#65')).toBe('<>"\'AA')
    expect(htmlUnescape('&ampx')).toBe('&x') // accepted without ';' (longest known prefix)
    expect(htmlUnescape('&notit;')).toBe('¬it;')
    expect(htmlUnescape('&bogus;')).toBe('&bogus;')
    expect(htmlUnescape('&#128;')).toBe('€') // windows-1252 remap
    expect(htmlUnescape('&#xD800;')).toBe('\uFFFD')
    expect(htmlUnescape('&#1;')).toBe('')
    expect(htmlUnescape('&trade;')).toBe('™')
  })

  it('strips Python whitespace, not JS whitespace', () => {
    expect(pythonStrip('\x1c a \x85')).toBe('a')
    expect(pythonStrip('\ufeffa')).toBe('\ufeffa')
  })

  it('normalises names as html.unescape(name).upper().strip()', () => {
    expect(normalizeNodeName('  Sext&oacute;n ')).toBe('SEXTÓN')
    expect(normalizeNodeName('Project Gutenberg&trade; Trademark')).toBe('PROJECT GUTENBERG™ TRADEMARK')
  })

  it('orders by code point like Python', () => {
    const astral = '\u{1F600}'
    expect(compareCodePoints(astral, '\uFFFD')).toBeGreaterThan(0)
    expect('\u{1F600}' < '\uFFFD').toBe(true) // JS order differs
    expect(compareCodePoints('AB', 'ABC')).toBeLessThan(0)
    expect(compareCodePoints('B', 'AZ')).toBeGreaterThan(0)
  })
})

describe('connected components', () => {
  it('breaks a tie in size by first discovery (sources in row order, then targets)', () => {
    const edges = [
      { source: 'X', target: 'Y' },
      { source: 'A', target: 'B' },
    ]
    expect(stableLargestConnectedComponent(edges)).toEqual([{ source: 'X', target: 'Y' }])
    expect(stableLargestConnectedComponent([...edges].reverse())).toEqual([{ source: 'A', target: 'B' }])
  })

  it('keeps the largest component, normalised, oriented, deduplicated and sorted', () => {
    const out = stableLargestConnectedComponent([
      { source: 'b', target: 'a', weight: 1 },
      { source: 'A', target: 'B ', weight: 2 },
      { source: 'c', target: 'b', weight: 3 },
      { source: 'x', target: 'y', weight: 4 },
    ])
    expect(out).toEqual([
      { source: 'A', target: 'B', weight: 1 },
      { source: 'B', target: 'C', weight: 3 },
    ])
    expect(stableLargestConnectedComponent([])).toEqual([])
  })
})
