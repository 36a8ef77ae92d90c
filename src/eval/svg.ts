/** Inline SVG charts for the eval report: horizontal bars (with an optional interval) and a labelled scatter plot. */
import { escapeMarkup } from '../text/markup.js'

export interface Bar {
  label: string
  value: number
  low?: number
  high?: number
}

const FONT = 'font-family="sans-serif" font-size="12"'

/** Bars from 0 to `max`, one row each; `marker` draws a dashed reference line (0.5 for win rates). */
export function barChart(title: string, bars: readonly Bar[], options: { max?: number; marker?: number } = {}): string {
  const max = options.max ?? Math.max(1e-9, ...bars.map((b) => b.high ?? b.value))
  const labelWidth = Math.min(260, 12 + 7 * Math.max(4, ...bars.map((b) => b.label.length)))
  const plot = 360
  const rowHeight = 22
  const height = 40 + bars.length * rowHeight
  const x = (v: number) => labelWidth + (Math.max(0, Math.min(v, max)) / max) * plot
  const rows = bars.map((b, i) => {
    const y = 30 + i * rowHeight
    const interval =
      b.low === undefined || b.high === undefined
        ? ''
        : `<line x1="${x(b.low).toFixed(1)}" x2="${x(b.high).toFixed(1)}" y1="${y + 8}" y2="${y + 8}" stroke="#222" stroke-width="1.5"/>`
    return (
      `<text x="${labelWidth - 6}" y="${y + 12}" text-anchor="end" ${FONT}>${escapeMarkup(b.label)}</text>` +
      `<rect x="${labelWidth}" y="${y}" width="${(x(b.value) - labelWidth).toFixed(1)}" height="16" fill="#4a78b5"/>` +
      interval +
      `<text x="${(x(b.value) + 4).toFixed(1)}" y="${y + 12}" ${FONT}>${b.value.toFixed(2)}</text>`
    )
  })
  const marker =
    options.marker === undefined
      ? ''
      : `<line x1="${x(options.marker)}" x2="${x(options.marker)}" y1="24" y2="${height - 8}" stroke="#b33" stroke-dasharray="4 3"/>`
  return svg(
    labelWidth + plot + 60,
    height,
    `<text x="8" y="16" ${FONT} font-weight="bold">${escapeMarkup(title)}</text>${rows.join('')}${marker}`,
  )
}

export interface Point {
  label: string
  x: number
  y: number
}

/** A scatter plot of labelled points, axes from 0 to the largest value. */
export function scatterPlot(title: string, points: readonly Point[], axes: { x: string; y: string }): string {
  const width = 520
  const height = 320
  const left = 60
  const bottom = height - 40
  const maxX = Math.max(1e-9, ...points.map((p) => p.x))
  const maxY = Math.max(1e-9, ...points.map((p) => p.y))
  const px = (v: number) => left + (v / maxX) * (width - left - 120)
  const py = (v: number) => bottom - (v / maxY) * (bottom - 40)
  const dots = points.map(
    (p) =>
      `<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="4" fill="#4a78b5"/>` +
      `<text x="${(px(p.x) + 6).toFixed(1)}" y="${(py(p.y) + 4).toFixed(1)}" ${FONT}>${escapeMarkup(p.label)}</text>`,
  )
  const frame =
    `<line x1="${left}" y1="${bottom}" x2="${width - 20}" y2="${bottom}" stroke="#222"/>` +
    `<line x1="${left}" y1="40" x2="${left}" y2="${bottom}" stroke="#222"/>` +
    `<text x="${left}" y="${height - 12}" ${FONT}>${escapeMarkup(axes.x)} (0 – ${maxX.toPrecision(3)})</text>` +
    `<text x="8" y="34" ${FONT}>${escapeMarkup(axes.y)} (max ${maxY.toPrecision(3)})</text>`
  return svg(
    width,
    height,
    `<text x="8" y="16" ${FONT} font-weight="bold">${escapeMarkup(title)}</text>${frame}${dots.join('')}`,
  )
}

function svg(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${body}</svg>`
}
