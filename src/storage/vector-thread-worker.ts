/**
 * The worker side of src/storage/vector-thread.ts: starts loading LanceDB as soon as the thread
 * starts, then answers each call on the store named by its URI.
 */
import { parentPort } from 'node:worker_threads'
import { loadLanceDb, openVectorStore } from './vector-store.js'
import { OpenStores, toThreadError, type VectorThreadReply, type VectorThreadRequest } from './vector-thread.js'

const port = parentPort
if (port === null) throw new Error('vector-thread-worker.js runs as a worker thread (src/storage/vector-thread.ts)')

void loadLanceDb().catch(() => {}) // a failure is reported by the first call, which loads it again
const stores = new OpenStores(openVectorStore)

port.on('message', (request: VectorThreadRequest) => {
  stores.run(request).then(
    (value) => port.postMessage({ id: request.id, value } satisfies VectorThreadReply),
    (error: unknown) => port.postMessage({ id: request.id, error: toThreadError(error) } satisfies VectorThreadReply),
  )
})
