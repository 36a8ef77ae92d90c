/**
 * Parquet encoding and decoding on a worker thread of its own, for big tables. parquet-wasm's
 * WebAssembly memory grows to its largest use and never shrinks, and arrow-rs needs several times a
 * table's largest text to write it (the decoded input, the dictionary, the min/max statistics, the
 * page and its compressed copy, the output buffer): on the process's shared instance a 200 MB
 * document kept about 1.5 GB for the rest of the run. A worker has an instance of its own, whose
 * memory goes with the worker when it ends. The worker runs the same parquet-wasm build with the same
 * writer properties, so the bytes are those of the shared instance (test/storage/parquet-worker.test.ts
 * compares them).
 */
import { open } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { ArrowStreamPlan } from './arrow-stream.js'

const MODULE = createRequire(import.meta.url).resolve('parquet-wasm/node')

/**
 * What a worker does: write one Arrow IPC stream as Parquet (writeParquet), or several as one file
 * (transformParquetStream), asking for each stream and each window of it; or read a Parquet file batch by batch.
 */
type Task =
  | { kind: 'encode'; compression: 'SNAPPY'; fd?: number }
  | { kind: 'encode-batches'; compression: 'SNAPPY'; fd?: number; rowGroupRows?: number }
  | { kind: 'decode'; source: string | Blob; options: DecodeOptions }

/** What to read: `rowCount` rows (the file's) of `columns`, `batchSize` at a time. */
interface DecodeOptions {
  batchSize: number
  columns: string[]
  rowCount: number
}

type Reply =
  | { bytes: Uint8Array }
  | { written: number }
  | { ipc: Uint8Array }
  | { done: true }
  | { next: true }
  | { more: true }
  | { error: string }

/**
 * Bytes of an Arrow IPC stream handed to the worker at a time: neither thread holds a piece's stream
 * whole in JavaScript memory (184 MB for a row group of a noun graph's relationships).
 */
const WINDOW_BYTES = 8 * 2 ** 20

/**
 * The worker's code (CommonJS, evaluated as is: plain JavaScript that refers to nothing outside it).
 * Decoding sends one batch and waits for the next to be asked for, so at most one batch is in flight.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const pq = withInternals(workerData.module)
// parquet-wasm's glue with its WebAssembly exports and error helper made reachable (it keeps them in
// module variables): a stream is copied straight into the instance's memory, a window at a time.
function withInternals(file) {
  const Module = require('node:module')
  const reach = '\\nmodule.exports.__internals = { wasm, takeFromExternrefTable0 }\\n'
  const loaded = new Module(file)
  loaded.filename = file
  loaded.paths = Module._nodeModulePaths(require('node:path').dirname(file))
  loaded._compile(require('node:fs').readFileSync(file, 'utf8') + reach, file)
  const { wasm } = loaded.exports.__internals
  const needed = ['__wbindgen_malloc', '__wbindgen_free', 'table_fromIPCStream', 'writeParquet']
  if (needed.some((name) => typeof wasm[name] !== 'function'))
    throw new Error('this parquet-wasm build lacks one of ' + needed.join(', ') + ': see parquet-worker.ts')
  return loaded.exports
}
// A window is garbage once copied in: freed now, as release-buffers.ts does on the main thread.
function releaseNow(buffer) {
  const { port1, port2 } = new (require('node:worker_threads').MessageChannel)()
  port1.postMessage(null, [buffer])
  port1.close()
  port2.close()
}
// Asks the main thread (one question at a time) and waits for its answer.
function ask(question) {
  return new Promise((answer) => {
    parentPort.once('message', answer)
    parentPort.postMessage(question)
  })
}
// The next piece's Arrow IPC stream, copied window by window into the instance's memory and parsed
// there as Table.fromIPCStream does (the call frees the copy), so it is never whole in JavaScript
// memory beside it. Undefined when there are no more pieces.
async function nextTable() {
  const { size } = await ask({ next: true })
  if (size === undefined) return undefined
  const { wasm, takeFromExternrefTable0 } = pq.__internals
  const at = wasm.__wbindgen_malloc(size, 1) >>> 0
  for (let filled = 0; filled < size; ) {
    const { window } = await ask({ more: true })
    new Uint8Array(wasm.memory.buffer, at + filled, window.byteLength).set(new Uint8Array(window))
    filled += window.byteLength
    releaseNow(window)
  }
  const made = wasm.table_fromIPCStream(at, size)
  if (made[2]) throw takeFromExternrefTable0(made[1])
  return pq.Table.__wrap(made[0])
}
function properties(task) {
  const builder = new pq.WriterPropertiesBuilder().setCompression(pq.Compression[task.compression])
  return (task.rowGroupRows === undefined ? builder : builder.setMaxRowGroupSize(task.rowGroupRows)).build()
}
async function run(task) {
  if (task.kind === 'encode' && task.fd !== undefined) return writeParquetInto(task.fd, await nextTable(), task)
  if (task.kind === 'encode') {
    const bytes = pq.writeParquet(await nextTable(), properties(task))
    parentPort.postMessage({ bytes }, [bytes.buffer])
    return
  }
  if (task.kind === 'encode-batches') return encodeBatches(task)
  const blob = typeof task.source === 'string' ? await require('node:fs').openAsBlob(task.source) : task.source
  const reader = await pq.ParquetFile.fromFile(blob)
  // Batch by batch (offset and limit): reader.stream decodes a whole row group ahead (parquet.ts).
  const { batchSize, columns, rowCount } = task.options
  for (let offset = 0; offset < rowCount; offset += batchSize) {
    const ipc = (await reader.read({ offset, limit: batchSize, batchSize, columns })).intoIPCStream()
    const asked = new Promise((next) => parentPort.once('message', next))
    parentPort.postMessage({ ipc }, [ipc.buffer])
    await asked
  }
  parentPort.postMessage({ done: true })
}
// Each piece's record batches go to the writer in turn; the next piece is asked for once they are written.
async function encodeBatches(task) {
  const source = new ReadableStream(
    {
      async pull(controller) {
        const table = await nextTable()
        if (table === undefined) return controller.close()
        for (const batch of table.recordBatches()) controller.enqueue(batch)
        table.free()
      },
    },
    { highWaterMark: 0 },
  )
  const chunks = await pq.transformParquetStream(source, properties(task))
  if (task.fd !== undefined) return writeChunks(chunks, task.fd)
  const parts = []
  for await (const chunk of chunks) parts.push(chunk)
  return sendWhole(parts)
}
function sendWhole(chunks) {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  parentPort.postMessage({ bytes }, [bytes.buffer])
}
function writeParquetInto(fd, table, task) {
  const { wasm, takeFromExternrefTable0 } = pq.__internals
  const made = wasm.writeParquet(table.__destroy_into_raw(), properties(task).__destroy_into_raw())
  if (made[3]) throw takeFromExternrefTable0(made[2])
  const [at, size] = [made[0] >>> 0, made[1]]
  try {
    const fs = require('node:fs')
    for (let done = 0; done < size; ) done += fs.writeSync(fd, new Uint8Array(wasm.memory.buffer, at + done, size - done))
  } finally {
    wasm.__wbindgen_free(at, size, 1)
  }
  parentPort.postMessage({ written: size })
}
async function writeChunks(chunks, fd) {
  const fs = require('node:fs')
  let written = 0
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.byteLength; ) at += fs.writeSync(fd, chunk, at, chunk.byteLength - at)
    written += chunk.byteLength
  }
  parentPort.postMessage({ written })
}
run(workerData.task).catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }))
`

/** One worker running one task; replies are queued until read. */
class TaskWorker {
  private readonly worker: Worker
  private readonly replies: Reply[] = []
  private waiting: ((reply: Reply) => void) | undefined

  constructor(task: Task, transfer: ArrayBuffer[]) {
    // No execArgv of the process: under --input-type=module the code would be read as an ES module.
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { module: MODULE, task },
      transferList: transfer,
    })
    const deliver = (reply: Reply) => {
      const waiting = this.waiting
      this.waiting = undefined
      if (waiting === undefined) this.replies.push(reply)
      else waiting(reply)
    }
    this.worker.on('message', deliver)
    this.worker.on('error', (error: Error) => deliver({ error: error.message }))
    this.worker.on('exit', () => deliver({ error: 'the Parquet worker thread ended early' }))
  }

  /** The next reply; a reply that says what went wrong is thrown. */
  async reply(): Promise<Exclude<Reply, { error: string }>> {
    const reply = this.replies.shift() ?? (await new Promise<Reply>((done) => (this.waiting = done)))
    if ('error' in reply) throw new Error(reply.error)
    return reply
  }

  askNext(): void {
    this.worker.postMessage('next')
  }

  /** Answers the worker's last question (a piece's size, or a window of it, handed over). */
  answer(message: { size: number | undefined } | { window: ArrayBuffer }): void {
    this.worker.postMessage(message, 'window' in message ? [message.window] : [])
  }

  /** Ends the worker and waits until it has, so its memory is returned before the caller goes on. */
  async stop(): Promise<void> {
    await this.worker.terminate()
  }
}

/** Writes one Arrow IPC stream (made a window at a time) as a SNAPPY Parquet file on a worker. */
export async function encodeOnWorker(stream: ArrowStreamPlan, windowBytes = WINDOW_BYTES): Promise<Uint8Array> {
  return bytesOf(await encodeStreams({ kind: 'encode', compression: 'SNAPPY' }, [stream], windowBytes))
}

/**
 * Writes one SNAPPY Parquet file from several Arrow IPC streams of the same schema on a worker, each
 * made only when the worker asks for it, so a table's rows are never all in Arrow form at once.
 */
export async function encodeBatchesOnWorker(
  streams: Iterable<ArrowStreamPlan>,
  windowBytes = WINDOW_BYTES,
  rowGroupRows?: number,
): Promise<Uint8Array> {
  const task = { kind: 'encode-batches', compression: 'SNAPPY', rowGroupRows } as const
  return bytesOf(await encodeStreams(task, streams, windowBytes))
}

/**
 * encodeOnWorker into `file` (created or truncated): the worker writes parquet-wasm's output straight from
 * its WebAssembly memory, without copying it out first (on the 30 MB dense corpus the 640 MB text_units
 * file, beside the ~2 GB the writer took in that memory). Returns the bytes written.
 */
export async function encodeToFile(stream: ArrowStreamPlan, file: string, windowBytes = WINDOW_BYTES): Promise<number> {
  return encodeIntoFile(file, (fd) => ({ kind: 'encode', compression: 'SNAPPY', fd }), [stream], windowBytes)
}

/**
 * encodeBatchesOnWorker into `file` (created or truncated): the worker writes each part of the file as
 * parquet-wasm hands it over (a row group at a time), instead of gathering the parts and then copying them
 * into one buffer (on the 30 MB dense corpus a 409 MB relationships file: twice that at the end of
 * finalize_graph's write). `rowGroupRows` as in encodeBatchesOnWorker. Returns the bytes written.
 */
export async function encodeBatchesToFile(
  streams: Iterable<ArrowStreamPlan>,
  file: string,
  windowBytes = WINDOW_BYTES,
  rowGroupRows?: number,
): Promise<number> {
  const task = (fd: number) => ({ kind: 'encode-batches', compression: 'SNAPPY', fd, rowGroupRows }) as const
  return encodeIntoFile(file, task, streams, windowBytes)
}

/** Runs an encode task that writes into `file`, opened here: a worker stopped mid-write (a piece that failed) would leave it open. */
async function encodeIntoFile(
  file: string,
  task: (fd: number) => Task,
  streams: Iterable<ArrowStreamPlan>,
  windowBytes: number,
): Promise<number> {
  const handle = await open(file, 'w')
  try {
    const done = await encodeStreams(task(handle.fd), streams, windowBytes)
    if (!('written' in done)) throw new Error('the Parquet worker sent the file back instead of writing it')
    return done.written
  } finally {
    await handle.close()
  }
}

function bytesOf(done: { bytes: Uint8Array } | { written: number }): Uint8Array {
  if (!('bytes' in done)) throw new Error('the Parquet worker wrote a file instead of sending it back')
  return done.bytes
}

/** Runs an encode task, answering the worker's questions: the next stream's size, the next window of it. */
async function encodeStreams(
  task: Task,
  streams: Iterable<ArrowStreamPlan>,
  windowBytes: number,
): Promise<{ bytes: Uint8Array } | { written: number }> {
  const worker = new TaskWorker(task, [])
  const pieces = streams[Symbol.iterator]()
  let windows: Iterator<Uint8Array> | undefined
  try {
    for (;;) {
      const reply = await worker.reply()
      if ('bytes' in reply || 'written' in reply) return reply
      if ('next' in reply) {
        // Made only now: the worker has parsed the previous stream, whose windows are all gone.
        const piece = pieces.next()
        windows = piece.done ? undefined : piece.value.windows(windowBytes)
        worker.answer({ size: piece.done ? undefined : piece.value.byteLength })
        continue
      }
      const window = 'more' in reply ? windows?.next() : undefined
      if (window === undefined || window.done === true) throw new Error('the Parquet worker sent an unexpected reply')
      worker.answer({ window: ownBuffer(window.value) })
    }
  } finally {
    await worker.stop()
  }
}

/** A whole view's buffer (copied when the view is a part of a larger one), to hand over to a thread. */
function ownBuffer(ipc: Uint8Array): ArrayBuffer {
  const whole = ipc.byteOffset === 0 && ipc.byteLength === ipc.buffer.byteLength ? ipc : ipc.slice()
  return whole.buffer as ArrayBuffer
}

/**
 * Reads a Parquet file (a path, or a Blob in memory: a Blob backed by a file cannot be handed to a
 * thread) on a worker, yielding each record batch of at most `batchSize` rows of `columns` as an
 * Arrow IPC stream.
 */
export async function* decodeOnWorker(source: string | Blob, options: DecodeOptions): AsyncGenerator<Uint8Array> {
  const worker = new TaskWorker({ kind: 'decode', source, options }, [])
  try {
    for (;;) {
      const reply = await worker.reply()
      if ('done' in reply) return
      if (!('ipc' in reply)) throw new Error('the Parquet worker sent no batch')
      yield reply.ipc
      worker.askNext()
    }
  } finally {
    await worker.stop()
  }
}
