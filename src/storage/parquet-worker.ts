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
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

const MODULE = createRequire(import.meta.url).resolve('parquet-wasm/node')

/** What a worker does: write one Arrow IPC stream as Parquet, or read a Parquet file batch by batch. */
type Task =
  | { kind: 'encode'; ipc: ArrayBuffer; compression: 'SNAPPY' }
  | { kind: 'encode-batches'; compression: 'SNAPPY' }
  | { kind: 'decode'; source: string | Blob; options: DecodeOptions }

/** What to read: `rowCount` rows (the file's) of `columns`, `batchSize` at a time. */
interface DecodeOptions {
  batchSize: number
  columns: string[]
  rowCount: number
}

type Reply = { bytes: Uint8Array } | { ipc: Uint8Array } | { done: true } | { next: true } | { error: string }

/**
 * The worker's code (CommonJS, evaluated as is: plain JavaScript that refers to nothing outside it).
 * Decoding sends one batch and waits for the next to be asked for, so at most one batch is in flight.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const pq = require(workerData.module)
// The IPC stream is garbage once parquet-wasm has its copy: freed now, as release-buffers.ts does on the main thread.
function releaseNow(buffer) {
  const { port1, port2 } = new (require('node:worker_threads').MessageChannel)()
  port1.postMessage(null, [buffer])
  port1.close()
  port2.close()
}
async function run(task) {
  if (task.kind === 'encode') {
    const table = pq.Table.fromIPCStream(new Uint8Array(task.ipc))
    releaseNow(task.ipc)
    task.ipc = null
    const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression[task.compression]).build()
    const bytes = pq.writeParquet(table, props)
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
// Asks the main thread for each Arrow IPC stream in turn ({ next }), so one is in flight at a time.
async function encodeBatches(task) {
  const next = () =>
    new Promise((arrived) => {
      parentPort.once('message', arrived)
      parentPort.postMessage({ next: true })
    })
  const source = new ReadableStream({
    async pull(controller) {
      const message = await next()
      if (message.ipc === undefined) return controller.close()
      const table = pq.Table.fromIPCStream(new Uint8Array(message.ipc))
      releaseNow(message.ipc)
      for (const batch of table.recordBatches()) controller.enqueue(batch)
      table.free()
    },
  })
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression[task.compression]).build()
  const chunks = []
  for await (const chunk of await pq.transformParquetStream(source, props)) chunks.push(chunk)
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  parentPort.postMessage({ bytes }, [bytes.buffer])
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

  /** Hands the worker the next IPC stream of an encode-batches task (undefined: there are no more). */
  send(ipc: ArrayBuffer | undefined): void {
    this.worker.postMessage({ ipc }, ipc === undefined ? [] : [ipc])
  }

  /** Ends the worker and waits until it has, so its memory is returned before the caller goes on. */
  async stop(): Promise<void> {
    await this.worker.terminate()
  }
}

/** Writes an Arrow IPC stream as a SNAPPY Parquet file on a worker; the stream's buffer is handed over. */
export async function encodeOnWorker(ipc: Uint8Array): Promise<Uint8Array> {
  const buffer = ownBuffer(ipc)
  const worker = new TaskWorker({ kind: 'encode', ipc: buffer, compression: 'SNAPPY' }, [buffer])
  try {
    const reply = await worker.reply()
    if (!('bytes' in reply)) throw new Error('the Parquet worker sent no file')
    return reply.bytes
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
 * Writes one SNAPPY Parquet file from several Arrow IPC streams of the same schema on a worker, each
 * made only when the worker asks for it, so a table's rows are never all in Arrow form at once.
 */
export async function encodeBatchesOnWorker(batches: Iterable<Uint8Array>): Promise<Uint8Array> {
  const worker = new TaskWorker({ kind: 'encode-batches', compression: 'SNAPPY' }, [])
  try {
    for (const ipc of batches) {
      if (!('next' in (await worker.reply()))) throw new Error('the Parquet worker did not ask for a batch')
      worker.send(ownBuffer(ipc))
    }
    if (!('next' in (await worker.reply()))) throw new Error('the Parquet worker did not ask for a batch')
    worker.send(undefined)
    const reply = await worker.reply()
    if (!('bytes' in reply)) throw new Error('the Parquet worker sent no file')
    return reply.bytes
  } finally {
    await worker.stop()
  }
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
