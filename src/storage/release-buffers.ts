/**
 * Freeing Arrow buffers as soon as they are garbage. A table is turned into Arrow columns and then
 * into one IPC stream synchronously, piece after piece, and the collector gets no turn in between:
 * writing a noun graph's 2 M relationships kept the columns of both row groups (~400 MB) beside the
 * IPC stream. Node 20 has no ArrayBuffer.prototype.transfer; handing a buffer to a message port that is
 * closed at once detaches it and drops its memory with the discarded message.
 */
import { MessageChannel } from 'node:worker_threads'
import type { Data, Vector } from './arrow.js'

/** Buffers below this are left to the collector (a port per call costs more than they do). */
const RELEASE_MIN_BYTES = 2 ** 20

/** Detaches `buffers` (their views read as empty from now on) and frees their memory. */
export function releaseNow(buffers: Iterable<ArrayBuffer>): void {
  const transfer = [...buffers].filter((buffer) => buffer.byteLength >= RELEASE_MIN_BYTES)
  if (transfer.length === 0) return
  const { port1, port2 } = new MessageChannel()
  port1.postMessage(null, transfer)
  port1.close()
  port2.close()
}

/** Every ArrayBuffer under the columns' data (values, offsets, validity, children), once each, except `keep`. */
export function columnBuffers(columns: Iterable<Vector>, keep: ArrayBufferLike): Set<ArrayBuffer> {
  const found = new Set<ArrayBuffer>()
  const visit = (data: Data) => {
    for (const view of [data.values, data.valueOffsets, data.nullBitmap, data.typeIds] as unknown[]) {
      const buffer = ArrayBuffer.isView(view) ? view.buffer : undefined
      if (buffer instanceof ArrayBuffer && buffer !== keep) found.add(buffer)
    }
    for (const child of data.children) visit(child)
  }
  for (const column of columns) for (const data of column.data) visit(data)
  return found
}
