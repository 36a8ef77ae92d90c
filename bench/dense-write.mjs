// The Parquet write of the dense corpus's noun graph on its own (docs/performance.md, "The fast method on a
// dense corpus"): reads a relationships table (the pruned one `npm run bench:dense -- --keep` leaves), repeats
// its rows (sources renamed per copy) to the 1,959,890 rows extract_graph_nlp writes, and writes them as the
// store does, printing the rise in RSS over the write (sampled every 20 ms, and the kernel's high-water mark),
// the RSS once the worker has ended, the time and the file's hash. Needs a build (`npm run build`).
// Usage: node --expose-gc bench/dense-write.mjs <output>/relationships.parquet [rows]
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { NLP_RELATIONSHIPS } from '../dist/model/relationships.js'
import { decodeParquetInBatches, encodeParquetReleasing } from '../dist/storage/parquet.js'

const [file, count = '1959890'] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: node --expose-gc bench/dense-write.mjs <relationships.parquet> [rows]')
const target = Number(count)
const statusMb = (key) =>
  Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024)

const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, { path: file }, file)
const rows = []
for (let copy = 0; rows.length < target; copy++)
  for (const row of read)
    if (rows.length < target) rows.push({ ...row, source: `${row.source} ${copy}`, weight: row.weight + copy })
globalThis.gc?.()
writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM to the current RSS
const before = statusMb('VmRSS')
const heap = Math.round(process.memoryUsage().heapUsed / 2 ** 20)
let sampled = before
const timer = setInterval(() => (sampled = Math.max(sampled, statusMb('VmRSS'))), 20)
const started = performance.now()
const bytes = await encodeParquetReleasing(NLP_RELATIONSHIPS, rows)
clearInterval(timer)
const seconds = (performance.now() - started) / 1000
console.log(
  `${rows.length} relationships: RSS ${before} MB before the write (heap ${heap} MB), peak ${Math.max(sampled, statusMb('VmHWM'))} MB ` +
    `(+${Math.max(sampled, statusMb('VmHWM')) - before} MB), ${statusMb('VmRSS')} MB after it (the worker gone), ${seconds.toFixed(1)} s, ${bytes.byteLength} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`,
)
