/**
 * apache-arrow, loaded as the CommonJS build that LanceDB requires, so a process holds one copy of
 * Arrow. Importing it as ESM loads a second copy (~480 more modules, about 0.15 s of CPU at start-up
 * on the 2-core CI machine; docs/performance.md) that LanceDB cannot share. Both builds are the same
 * release, so values and written bytes do not change. Types come from the package as usual.
 */
import { createRequire } from 'node:module'
import type * as ArrowTypes from 'apache-arrow'

const arrow = createRequire(import.meta.url)('apache-arrow') as typeof ArrowTypes

export const {
  Bool,
  DataType,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int64,
  List,
  Null,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Type,
  Utf8,
  makeData,
  makeVector,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
} = arrow

export type Bool = ArrowTypes.Bool
export type DataType = ArrowTypes.DataType
export type Field = ArrowTypes.Field
export type FixedSizeList = ArrowTypes.FixedSizeList
export type Float32 = ArrowTypes.Float32
export type Float64 = ArrowTypes.Float64
export type Int64 = ArrowTypes.Int64
export type List = ArrowTypes.List
export type Null = ArrowTypes.Null
export type RecordBatch = ArrowTypes.RecordBatch
export type Schema = ArrowTypes.Schema
export type Struct = ArrowTypes.Struct
export type Table = ArrowTypes.Table
export type Utf8 = ArrowTypes.Utf8
export type { Data, Vector } from 'apache-arrow'
