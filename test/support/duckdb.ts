/** DuckDB as the test oracle for Parquet files we write. */
import { DuckDBInstance } from '@duckdb/node-api'

export async function duckQuery(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    const result = await connection.runAndReadAll(sql)
    return result.getRowObjectsJS() as Record<string, unknown>[]
  } finally {
    connection.closeSync()
  }
}

/** `column:TYPE` per column, as DuckDB describes a Parquet file. */
export async function duckDescribe(file: string): Promise<string[]> {
  const rows = await duckQuery(`DESCRIBE SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`)
  return rows.map((r) => `${String(r.column_name)}:${String(r.column_type)}`)
}
