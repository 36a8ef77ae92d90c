/**
 * A PDF page's text items (pdf.js getTextContent) → lines and paragraphs. Items on one baseline form
 * a line (a space is added where the items leave a gap). A paragraph break is a vertical gap of more
 * than 1.5 line heights (single spacing is about 1.2) that is also clearly wider than the page's
 * usual line spacing, when the page has one (so double-spaced text is not a paragraph per line).
 */

/** The fields of a pdf.js TextItem that layout needs. */
export interface PdfTextItem {
  readonly str: string
  readonly transform: readonly number[]
  readonly width: number
  readonly height: number
  readonly hasEOL: boolean
}

interface Line {
  text: string
  y: number
  height: number
  endX: number
  ended: boolean
}

const PARAGRAPH_HEIGHTS = 1.5
const PARAGRAPH_SPACING = 1.3

export function pageText(items: readonly PdfTextItem[]): string {
  const lines = toLines(items).filter((line) => line.text.trim() !== '')
  if (lines.length === 0) return ''
  const gaps = lines.slice(1).map((line, i) => lines[i]!.y - line.y)
  const usual = mostCommon(gaps.filter((gap) => gap > 0))
  let text = lines[0]!.text.trim()
  lines.slice(1).forEach((line, i) => {
    const gap = gaps[i]!
    const height = Math.max(line.height, lines[i]!.height)
    const paragraph = gap > PARAGRAPH_HEIGHTS * height && (usual === undefined || gap > PARAGRAPH_SPACING * usual)
    text += (paragraph ? '\n\n' : '\n') + line.text.trim()
  })
  return text
}

function toLines(items: readonly PdfTextItem[]): Line[] {
  const lines: Line[] = []
  let line: Line | undefined
  for (const item of items) {
    const x = item.transform[4] ?? 0
    const y = item.transform[5] ?? 0
    const height = item.height || Math.abs(item.transform[3] ?? 0)
    if (item.str === '') {
      // pdf.js marks line ends with empty items placed on the next line; only the mark matters.
      if (item.hasEOL && line !== undefined) line.ended = true
      continue
    }
    const sameLine = line !== undefined && !line.ended && Math.abs(y - line.y) <= Math.max(line.height, height) / 2
    if (!sameLine || line === undefined) {
      line = { text: item.str, y, height, endX: x + item.width, ended: item.hasEOL }
      lines.push(line)
      continue
    }
    const gapped = x > line.endX + height * 0.15 && !line.text.endsWith(' ') && !item.str.startsWith(' ')
    line.text += (gapped ? ' ' : '') + item.str
    line.endX = x + item.width
    line.height = Math.max(line.height, height)
    line.ended = item.hasEOL
  }
  return lines
}

/** The most frequent value, to the half point (ties: the smaller); undefined unless some value occurs twice. */
function mostCommon(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>()
  for (const value of values) {
    const key = Math.round(value * 2) / 2
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  let best: number | undefined
  let bestCount = 0
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value < best!)) {
      best = value
      bestCount = count
    }
  }
  return bestCount >= 2 ? best : undefined
}
