/**
 * Node labels that stay inside the canvas: sigma draws a label to the right of its node, so the
 * labels of the rightmost nodes were cut at the edge. A label that would overflow on the right is
 * drawn on the node's left instead (and never left of the canvas's edge).
 */
import type { NodeLabelDrawingFunction } from 'sigma/rendering'

/** Gap between a node's disc and its label, in pixels (sigma's own). */
const GAP = 3

/** Where a label of `width` pixels starts beside a node at `x` of radius `size`, on a canvas `canvasWidth` wide. */
export function labelLeft(x: number, size: number, width: number, canvasWidth: number): number {
  const right = x + size + GAP
  if (right + width <= canvasWidth) return right
  return Math.max(0, x - size - GAP - width)
}

/** Horizontal extents of the labels drawn in the last frame, for tests and scripts. */
export interface DrawnLabels {
  count: number
  left: number
  right: number
  /** The canvas's width, in the same (CSS) pixels. */
  width: number
}

/** A label drawer that records what it drew in the frame's record (`frame()`, replaced before each frame). */
export function insideLabels(frame: () => DrawnLabels): NodeLabelDrawingFunction {
  return (context, data, settings) => {
    const drawn = frame()
    if (!data.label) return
    const size = settings.labelSize
    context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`
    context.fillStyle = settings.labelColor.color ?? '#000'
    const width = context.measureText(data.label).width
    const canvasWidth = context.canvas.clientWidth
    const left = labelLeft(data.x, data.size, width, canvasWidth)
    context.fillText(data.label, left, data.y + size / 3)
    drawn.count++
    drawn.left = Math.min(drawn.left, left)
    drawn.right = Math.max(drawn.right, left + width)
    drawn.width = canvasWidth
  }
}

export function noLabels(): DrawnLabels {
  return { count: 0, left: Number.POSITIVE_INFINITY, right: 0, width: 0 }
}
