/**
 * Vector search on a worker thread of its own, for a one-shot `graphrag query`. Loading LanceDB
 * and the apache-arrow it requires costs about 0.15 s of CPU at start-up; started with the command,
 * the thread loads them on another core while the main thread reads the settings, the tables and
 * the tokenizer, and the first search finds them ready. A long-lived process (serve, the library)
 * opens the store in process instead (src/storage/vector-store.ts): it pays the load once.
 * The thread answers the read side of VectorStore; its errors come back with their message (a
 * StorageError stays one). Should the thread fail or end on its own, its calls and those after run
 * in this thread instead: the thread is an optimisation, never a reason for a query to fail.
 */
import { SHARE_ENV, Worker } from 'node:worker_threads'
import { StorageError } from '../errors.js'
import { lanceOptionsFor } from './object/remote.js'
import type { VectorStore } from './vector-store.js'

/** What a search reads from a vector store, wherever the store runs. */
export type SearchVectorStore = Pick<VectorStore, 'hasTable' | 'search' | 'vectorsById' | 'close'>

/** One call: the store (its URI and the connection options registered for it) and the method's arguments. */
export interface VectorThreadRequest {
  id: number
  op: 'hasTable' | 'search' | 'vectorsById' | 'close'
  dbUri: string
  storageOptions: Record<string, string> | undefined
  args: unknown[]
}

/** An error as it crosses the thread: its kind, message, path and causes (a cloned Error keeps none of them). */
export interface ThreadError {
  name: string
  message: string
  path?: string
  cause?: ThreadError
}

export type VectorThreadReply = { id: number; value: unknown } | { id: number; error: ThreadError }

export interface VectorThread {
  /** The store at `dbUri`, opened in the thread on its first call. */
  open(dbUri: string): Promise<SearchVectorStore>
  /** Ends the thread; calls still waiting fail. */
  close(): Promise<void>
}

/** The stores a thread has open, by URI, each opened by its first call (the thread and its fallback share it). */
export class OpenStores {
  private readonly stores = new Map<string, Promise<VectorStore>>()

  constructor(private readonly openStore: (dbUri: string, options?: Record<string, string>) => Promise<VectorStore>) {}

  async run(request: VectorThreadRequest): Promise<unknown> {
    const { dbUri, args } = request
    if (request.op === 'close') {
      const store = this.stores.get(dbUri)
      this.stores.delete(dbUri)
      ;(await store)?.close()
      return undefined
    }
    let opened = this.stores.get(dbUri)
    if (opened === undefined) {
      opened = this.openStore(dbUri, request.storageOptions)
      this.stores.set(dbUri, opened)
      // A store that failed to open is tried again by the next call, not remembered broken.
      opened.catch(() => this.stores.delete(dbUri))
    }
    const store = await opened
    switch (request.op) {
      case 'hasTable':
        return store.hasTable(args[0] as string)
      case 'search':
        return store.search(args[0] as string, args[1] as number[], args[2] as number)
      case 'vectorsById':
        return store.vectorsById(args[0] as string, args[1] as string[] | undefined)
    }
  }

  closeAll(): void {
    for (const store of this.stores.values()) store.then((s) => s.close()).catch(() => {})
    this.stores.clear()
  }
}

export function startVectorThread(): VectorThread {
  const worker = new Worker(new URL('./vector-thread-worker.js', import.meta.url), {
    // SHARE_ENV: credentials that .env adds after the thread started are seen by LanceDB there too.
    env: SHARE_ENV,
    // The process's flags (a profiler, a module hook) apply to the thread too, but for one a file can't take.
    execArgv: process.execArgv.filter((flag) => !flag.startsWith('--input-type')),
  })
  type Waiting = { request: VectorThreadRequest; resolve: (value: unknown) => void; reject: (error: Error) => void }
  const waiting = new Map<number, Waiting>()
  let nextId = 0
  let closed: Error | undefined
  let inProcess: OpenStores | undefined // set once the thread failed or ended on its own
  const settle = (id: number): Waiting | undefined => {
    const call = waiting.get(id)
    if (call === undefined) return undefined // a late reply to a call that close() already failed
    waiting.delete(id)
    if (waiting.size === 0 && closed === undefined) worker.unref()
    return call
  }
  const fallBack = () => {
    if (closed !== undefined) return
    inProcess ??= new OpenStores(async (dbUri, options) =>
      (await import('./vector-store.js')).openVectorStore(dbUri, options),
    )
    for (const id of [...waiting.keys()]) {
      const call = settle(id)!
      inProcess.run(call.request).then(call.resolve, call.reject)
    }
  }
  worker.on('message', (reply: VectorThreadReply) => {
    const call = settle(reply.id)
    if (call === undefined) return
    if ('error' in reply) call.reject(threadError(reply.error))
    else call.resolve(reply.value)
  })
  worker.on('error', fallBack)
  worker.on('exit', fallBack)
  // An idle thread must not keep the process alive; one with calls in flight must. (After the
  // listeners: adding a 'message' listener refs the worker again.)
  worker.unref()

  const call = <T>(dbUri: string, op: VectorThreadRequest['op'], args: unknown[]): Promise<T> => {
    if (closed !== undefined) return Promise.reject(closed)
    const request: VectorThreadRequest = { id: nextId++, op, dbUri, storageOptions: lanceOptionsFor(dbUri), args }
    if (inProcess !== undefined) return inProcess.run(request) as Promise<T>
    return new Promise<T>((resolve, reject) => {
      waiting.set(request.id, { request, resolve: resolve as (value: unknown) => void, reject })
      if (waiting.size === 1) worker.ref()
      worker.postMessage(request)
    })
  }
  return {
    async open(dbUri) {
      return {
        hasTable: (name) => call(dbUri, 'hasTable', [name]),
        // Plain numbers: a typed array from the caller would be cloned all the same.
        search: (name, vector, k) => call(dbUri, 'search', [name, Array.from(vector), k]),
        vectorsById: (name, ids) => call(dbUri, 'vectorsById', ids === undefined ? [name] : [name, [...ids]]),
        close: () => void call(dbUri, 'close', []).catch(() => {}),
      }
    },
    async close() {
      closed ??= new StorageError('the vector search thread was closed')
      for (const id of [...waiting.keys()]) settle(id)?.reject(closed)
      inProcess?.closeAll()
      // Ref'd until it has ended, or a caller awaiting this (the CLI, before it prints an error and
      // sets the exit code) could see the process end first, silently, with code 0.
      worker.ref()
      await worker.terminate()
    },
  }
}

/** What the worker sends of an error: enough to print it as the process would have. */
export function toThreadError(error: unknown, depth = 0): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const path = (error as { path?: unknown }).path
  return {
    name: error.name,
    message: error.message,
    ...(typeof path === 'string' ? { path } : {}),
    ...(error.cause !== undefined && depth < 4 ? { cause: toThreadError(error.cause, depth + 1) } : {}),
  }
}

function threadError(error: ThreadError): Error {
  const cause = error.cause === undefined ? undefined : threadError(error.cause)
  if (error.name === 'StorageError') return new StorageError(error.message, { path: error.path, cause })
  const out = new Error(error.message, { cause })
  out.name = error.name
  return out
}
