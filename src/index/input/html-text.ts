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
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'select', 'head'])
const PARAGRAPHS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'dl', 'figure', 'hr', 'address', 'table'])
const LINES = new Set(['div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'dt', 'dd', 'figcaption', 'form', 'fieldset', 'details', 'summary', 'caption', 'tr', 'body'])
const CREATED_META = new Set(['date', 'created', 'dcterms.created', 'dc.date', 'dc.date.created', 'article:published_time'])

interface List {
  readonly ordered: boolean
  next: number
}

export function htmlToText(html: string): HtmlText {
  const writer = new TextWriter()
  const metadata: HtmlMetadata = {}
  const lists: List[] = []
  let skipDepth = 0
  let inTitle = false
  let title = ''
  let preDepth = 0
  let row: string[] | null = null
  let cell: TextWriter | null = null
  const sink = (): TextWriter => cell ?? writer

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true
        if (name === 'meta') readMeta(attributes, metadata)
        if (SKIPPED.has(name) || skipDepth > 0) {
          if (SKIPPED.has(name)) skipDepth++
          return
        }
        if (name === 'td' || name === 'th') {
          if (row === null) row = []
          cell = new TextWriter()
        } else if (name === 'tr') {
          row = []
        } else if (name === 'ul' || name === 'ol') {
          sink().paragraph(lists.length === 0 ? 2 : 1)
          lists.push({ ordered: name === 'ol', next: Number(attributes['start'] ?? 1) || 1 })
        } else if (name === 'li') {
          const list = lists.at(-1)
          const marker = list?.ordered ? `${list.next++}. ` : '- '
          sink().paragraph(1, '  '.repeat(Math.max(0, lists.length - 1)) + marker)
        } else if (name === 'br') {
          sink().lineBreak()
        } else if (name === 'pre') {
          preDepth++
          sink().paragraph(2)
        } else if (PARAGRAPHS.has(name)) {
          sink().paragraph(2)
        } else if (LINES.has(name)) {
          sink().paragraph(1)
        }
      },
      ontext(text) {
        if (inTitle) title += text
        if (skipDepth > 0) return
        sink().write(text, preDepth > 0)
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        if (SKIPPED.has(name) && skipDepth > 0) {
          skipDepth--
          return
        }
        if (skipDepth > 0) return
        if ((name === 'td' || name === 'th') && cell !== null) {
          row?.push(cell.toString().replace(/\s+/g, ' '))
          cell = null
        } else if (name === 'tr' && row !== null) {
          writer.paragraph(1)
          writer.writeRaw(row.join('\t').replace(/\t+$/, ''))
          writer.paragraph(1)
          row = null
        } else if (name === 'ul' || name === 'ol') {
          lists.pop()
          sink().paragraph(lists.length === 0 ? 2 : 1)
        } else if (name === 'pre') {
          preDepth = Math.max(0, preDepth - 1)
          sink().paragraph(2)
        } else if (PARAGRAPHS.has(name)) {
          sink().paragraph(2)
        } else if (LINES.has(name) || name === 'li') {
          sink().paragraph(1)
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  parser.end()
  const cleanTitle = title.replace(/\s+/g, ' ').trim()
  if (cleanTitle !== '') metadata.title = cleanTitle
  return { text: writer.toString(), metadata }
}

function readMeta(attributes: Record<string, string>, metadata: HtmlMetadata): void {
  const key = (attributes['name'] ?? attributes['property'] ?? '').toLowerCase()
  const content = attributes['content']?.trim()
  if (content === undefined || content === '') return
  if (key === 'author' || key === 'dc.creator') metadata.author ??= content
  else if (CREATED_META.has(key)) metadata.created ??= content
}
