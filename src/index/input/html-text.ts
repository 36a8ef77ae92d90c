/**
 * HTML → plain text for the html and docx readers (htmlparser2's streaming parser): paragraphs and
 * headings separated by a blank line, list items and table rows on their own lines (items marked
 * `- ` or `N. `), table cells separated by tabs, whitespace collapsed outside <pre>.
 */
import { Parser } from 'htmlparser2'
import { TextWriter } from './text-writer.js'

/** What a page says about itself in <title> and <meta>; absent values are undefined. */
interface HtmlMetadata {
  title?: string
  author?: string
  created?: string
}

export interface HtmlText {
  readonly text: string
  readonly metadata: HtmlMetadata
}

// Content that is never text a reader sees.
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'head',
])
const PARAGRAPHS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'dl',
  'figure',
  'hr',
  'address',
  'table',
])
const LINES = new Set([
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'dt',
  'dd',
  'figcaption',
  'form',
  'fieldset',
  'details',
  'summary',
  'caption',
  'tr',
  'body',
])
const CREATED_META = new Set([
  'date',
  'created',
  'dcterms.created',
  'dc.date',
  'dc.date.created',
  'article:published_time',
])

interface List {
  readonly ordered: boolean
  next: number
}

export function htmlToText(html: string): HtmlText {
  const renderer = new HtmlRenderer()
  const parser = new Parser(
    {
      onopentag: (name, attributes) => renderer.open(name, attributes),
      ontext: (text) => renderer.text(text),
      onclosetag: (name) => renderer.close(name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  parser.end()
  return renderer.result()
}

/** The parser's events → text; table cells are written to their own writer and joined by tabs per row. */
class HtmlRenderer {
  private readonly writer = new TextWriter()
  private readonly metadata: HtmlMetadata = {}
  private readonly lists: List[] = []
  private skipDepth = 0
  private inTitle = false
  private title = ''
  private preDepth = 0
  private row: string[] | null = null
  private cell: TextWriter | null = null

  private get sink(): TextWriter {
    return this.cell ?? this.writer
  }

  open(name: string, attributes: Record<string, string>): void {
    if (name === 'title') this.inTitle = true
    if (name === 'meta') readMeta(attributes, this.metadata)
    if (SKIPPED.has(name) || this.skipDepth > 0) {
      if (SKIPPED.has(name)) this.skipDepth++
      return
    }
    if (name === 'td' || name === 'th') {
      this.row ??= []
      this.cell = new TextWriter()
    } else if (name === 'tr') {
      this.row = []
    } else if (name === 'ul' || name === 'ol') {
      this.sink.paragraph(this.lists.length === 0 ? 2 : 1)
      this.lists.push({ ordered: name === 'ol', next: Number(attributes.start ?? 1) || 1 })
    } else if (name === 'li') {
      const list = this.lists.at(-1)
      const marker = list?.ordered ? `${list.next++}. ` : '- '
      this.sink.paragraph(1, '  '.repeat(Math.max(0, this.lists.length - 1)) + marker)
    } else if (name === 'br') {
      this.sink.lineBreak()
    } else {
      if (name === 'pre') this.preDepth++
      this.block(name)
    }
  }

  text(text: string): void {
    if (this.inTitle) this.title += text
    if (this.skipDepth === 0) this.sink.write(text, this.preDepth > 0)
  }

  close(name: string): void {
    if (name === 'title') this.inTitle = false
    if (this.skipDepth > 0) {
      if (SKIPPED.has(name)) this.skipDepth--
      return
    }
    if ((name === 'td' || name === 'th') && this.cell !== null) {
      this.row?.push(this.cell.toString().replace(/\s+/g, ' '))
      this.cell = null
    } else if (name === 'tr' && this.row !== null) {
      this.writer.paragraph(1)
      this.writer.writeRaw(this.row.join('\t').replace(/\t+$/, ''))
      this.writer.paragraph(1)
      this.row = null
    } else if (name === 'ul' || name === 'ol') {
      this.lists.pop()
      this.sink.paragraph(this.lists.length === 0 ? 2 : 1)
    } else {
      if (name === 'pre') this.preDepth = Math.max(0, this.preDepth - 1)
      this.block(name === 'li' ? 'div' : name)
    }
  }

  /** Opening and closing a block element both end the current paragraph or line. */
  private block(name: string): void {
    if (PARAGRAPHS.has(name)) this.sink.paragraph(2)
    else if (LINES.has(name)) this.sink.paragraph(1)
  }

  result(): HtmlText {
    const title = this.title.replace(/\s+/g, ' ').trim()
    if (title !== '') this.metadata.title = title
    return { text: this.writer.toString(), metadata: this.metadata }
  }
}

function readMeta(attributes: Record<string, string>, metadata: HtmlMetadata): void {
  const key = (attributes.name ?? attributes.property ?? '').toLowerCase()
  const content = attributes.content?.trim()
  if (content === undefined || content === '') return
  if (key === 'author' || key === 'dc.creator') metadata.author ??= content
  else if (CREATED_META.has(key)) metadata.created ??= content
}
