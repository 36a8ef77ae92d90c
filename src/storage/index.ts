/** Storage: Parquet tables, key-value stores and crash-safe writes. */
export { writeFileAtomic } from './atomic-write.js'
export { decodeArrow, decodeParquet, encodeParquet } from './parquet.js'
export { MemoryTableStore, ParquetTableStore, type TableStore } from './table-store.js'
export { FileKeyValueStore, MemoryKeyValueStore, NullKeyValueStore, type KeyValueStore } from './key-value-store.js'
