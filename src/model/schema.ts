/**
 * The table-declaration DSL: each table lists its columns once, in reference order, with a column
 * kind that fixes both the Arrow type written to Parquet and the TypeScript type of a row.
 */

/** Column kinds and the Arrow type each one is written as. */
export type ColumnKind =
  | 'string' // utf8
  | 'int64' // int64 (rows hold JS numbers; readers convert bigint)
  | 'double' // float64
  | 'list<string>'
  | 'list<int64>'
  | 'list<double>'
  | 'findings' // list<struct<explanation: utf8, summary: utf8>>
  | 'json' // free-form row data: Arrow null when every value is null, else a struct inferred from the values

export interface ColumnSpec {
  readonly name: string
  readonly kind: ColumnKind
  readonly nullable: boolean
}

export interface TableSchema<Cols extends readonly ColumnSpec[] = readonly ColumnSpec[]> {
  /** Table name; the Parquet file is `<name>.parquet`. Interim and final shapes share a name. */
  readonly name: string
  readonly columns: Cols
}

export interface Finding {
  explanation: string
  summary: string
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

type KindValue<K extends ColumnKind> = K extends 'string'
  ? string
  : K extends 'int64' | 'double'
    ? number
    : K extends 'list<string>'
      ? string[]
      : K extends 'list<int64>' | 'list<double>'
        ? number[]
        : K extends 'findings'
          ? Finding[]
          : K extends 'json'
            ? { [key: string]: JsonValue }
            : never

/** The row type of a table, derived from its declaration. */
export type RowOf<S extends TableSchema> = {
  [C in S['columns'][number] as C['name']]: C['nullable'] extends true
    ? KindValue<C['kind']> | null
    : KindValue<C['kind']>
}

export function column<const N extends string, const K extends ColumnKind>(
  name: N,
  kind: K,
): { readonly name: N; readonly kind: K; readonly nullable: false } {
  return { name, kind, nullable: false }
}

export function nullableColumn<const N extends string, const K extends ColumnKind>(
  name: N,
  kind: K,
): { readonly name: N; readonly kind: K; readonly nullable: true } {
  return { name, kind, nullable: true }
}

export function defineTable<const Cols extends readonly ColumnSpec[]>(name: string, columns: Cols): TableSchema<Cols> {
  return Object.freeze({ name, columns: Object.freeze(columns) as Cols })
}

/**
 * The same table with only the named columns, for a workflow that reads no more: the others are not
 * decoded (create_final_documents needs text units' ids, not their text).
 */
export function pickColumns<Cols extends readonly ColumnSpec[], const N extends Cols[number]['name']>(
  schema: TableSchema<Cols>,
  names: readonly N[],
): TableSchema<Extract<Cols[number], { name: N }>[]> {
  const wanted: readonly string[] = names
  return defineTable(
    schema.name,
    schema.columns.filter((col): col is Extract<Cols[number], { name: N }> => wanted.includes(col.name)),
  )
}
