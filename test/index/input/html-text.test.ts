import { describe, expect, it } from 'vitest'
import { htmlToText } from '../../../src/index/input/html-text.js'
import { pageText, type PdfTextItem } from '../../../src/index/input/pdf-layout.js'

describe('htmlToText', () => {
  it('nests list items with indentation and numbers ordered lists from their start', () => {
    const { text } = htmlToText(
      '<ul><li>Fruit<ul><li>Apple</li><li>Pear</li></ul></li><li>Bread</li></ul><ol start="3"><li>Three<li>Four</ol>',
    )
    expect(text).toBe('- Fruit\n  - Apple\n  - Pear\n- Bread\n\n3. Three\n4. Four')
  })

  it('writes table rows as tab-separated cells, keeping empty cells in the middle and flattening cell paragraphs', () => {
    const { text } = htmlToText(
      '<p>Before</p><table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>1</td><td></td><td><p>x</p><p>y</p></td></tr><tr><td>2</td><td></td><td></td></tr></table><p>After</p>',
    )
    expect(text).toBe('Before\n\nA\tB\tC\n1\t\tx y\n2\n\nAfter')
  })

  it('keeps <pre> whitespace, turns <br> into line breaks (two make a blank line) and decodes entities', () => {
    const { text } = htmlToText(
      '<div>one<br>two<br><br>three</div><pre>  a  b\n  c</pre><p>caf&eacute; &lt;tag&gt; &#8212; end</p>',
    )
    expect(text).toBe('one\ntwo\n\nthree\n\n  a  b\n  c\n\ncafé <tag> — end')
  })

  it('separates divs by a line and headings and paragraphs by a blank line; hides script, style and head', () => {
    const html =
      '<head><title>T</title><script>x()</script></head><body><nav>Home</nav><h2>Title</h2><div>Line one</div><div>Line <i>two</i></div><p>Para</p></body>'
    expect(htmlToText(html)).toEqual({ text: 'Home\n\nTitle\n\nLine one\nLine two\n\nPara', metadata: { title: 'T' } })
  })
})

describe('pdf pageText', () => {
  const item = (
    str: string,
    x: number,
    y: number,
    height = 11,
    width = str.length * 5,
    hasEOL = false,
  ): PdfTextItem => ({
    str,
    transform: [height, 0, 0, height, x, y],
    width,
    height,
    hasEOL,
  })

  it('joins items on one baseline (adding a space across a gap), breaks lines, and a wide gap is a paragraph', () => {
    const items = [
      item('Title', 72, 700, 18),
      item('First', 72, 670),
      item('line', 105, 670),
      item('second line', 72, 657),
      item('next paragraph', 72, 630),
    ]
    expect(pageText(items)).toBe('Title\n\nFirst line\nsecond line\n\nnext paragraph')
  })

  it('does not make every line of double-spaced text a paragraph', () => {
    const items = [0, 1, 2, 3].map((i) => item(`line ${i}`, 72, 700 - i * 24))
    expect(pageText(items)).toBe('line 0\nline 1\nline 2\nline 3')
  })
})
