// One table's write on its own, as the store makes it (docs/performance.md, "The fast method on a dense
// corpus"): reads a final relationships or text_units file as columns (readColumns, no row objects), then
// writes it again through ParquetTableStore.write from a row source that makes a row group of rows at a
// time (finalize_graph's way), into a temporary folder. Prints RSS before the write, the kernel's
// high-water mark over it, the time, and whether the file came out byte for byte the same.
// Needs a build (`npm run build`). Usage: node bench/table-write.mjs <index folder> [relationships|text_units]
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RELATIONSHIPS } from '../dist/model/relationships.js'
import { TEXT_UNITS } from '../dist/model/text-units.js'
import { collectGarbage } from '../dist/storage/collect-garbage.js'
import { valueAt } from '../dist/storage/table-columns.js'
import { ParquetTableStore, readColumns } from '../dist/storage/table-store.js'

const [dir, name = 'relationships'] = process.argv.slice(2)
if (dir === undefined) throw new Error('usage: node bench/table-write.mjs <index folder> [relationships|text_units]')
const schema = { relationships: RELATIONSHIPS, text_units: TEXT_UNITS }[name]
const statusMb = (key) =>
  Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024)
const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

const table = await readColumns(new ParquetTableStore(dir), schema)
const columns = schema.columns.map((col) => [col.name, table.columns.get(col.name)])
const rows = {
  length: table.length,
  slice(start = 0, end = table.length) {
    const out = []
    for (let i = start; i < Math.min(end, table.length); i++)
      out.push(Object.fromEntries(columns.map(([key, column]) => [key, valueAt(table, column, i)])))
    return out
  },
}
collectGarbage()
writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM to the current RSS
const before = statusMb('VmRSS')
const target = mkdtempSync(join(tmpdir(), 'graphrag-table-write-'))
const started = performance.now()
await new ParquetTableStore(target).write(schema, rows.length > 1024 * 1024 ? rows : rows.slice())
const seconds = (performance.now() - started) / 1000
const peak = statusMb('VmHWM')
const same = sha(join(target, `${name}.parquet`)) === sha(join(dir, `${name}.parquet`))
console.log(
  `${name}: ${table.length} rows; RSS ${before} MB before the write, peak ${peak} MB (+${peak - before} MB), ` +
    `${statusMb('VmRSS')} MB after; ${seconds.toFixed(1)} s; ${same ? 'same bytes' : 'DIFFERENT BYTES'}`,
)
rmSync(target, { recursive: true, force: true })
