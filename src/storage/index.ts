/** Storage: Parquet tables, key-value stores and crash-safe writes. */

export { decodeParquet, encodeParquet } from './parquet.js'
export { MemoryTableStore, ParquetTableStore, type TableStore } from './table-store.js'
