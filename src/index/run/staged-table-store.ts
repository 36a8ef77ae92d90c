/**
 * The table store a running workflow sees: writes go to a staging folder and are moved into the
 * index only when the workflow succeeds, so a crash mid-workflow leaves the previous tables intact
 * and the next run can resume from them.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { RowOf, TableSchema } from '../../model/schema.js'
import { ParquetTableStore, type ReadOptions, type RowSource, type TableStore } from '../../storage/table-store.js'
import { unlessAbsent } from '../../storage/fs-errors.js'

export class StagedTableStore implements TableStore {
  private readonly staged: ParquetTableStore
  private readonly written = new Set<string>()

  constructor(
    private readonly target: ParquetTableStore,
    readonly stagingDir: string,
  ) {
    this.staged = new ParquetTableStore(stagingDir, 'wasm', target.decoded)
  }

  get location(): string {
    return this.target.location
  }

  async read<S extends TableSchema>(schema: S, options?: ReadOptions): Promise<RowOf<S>[]> {
    return this.written.has(schema.name) ? this.staged.read(schema, options) : this.target.read(schema, options)
  }

  async write<S extends TableSchema>(schema: S, rows: RowSource<RowOf<S>>): Promise<void> {
    await this.staged.write(schema, rows)
    this.written.add(schema.name)
  }

  async has(name: string): Promise<boolean> {
    return this.written.has(name) || this.target.has(name)
  }

  async delete(name: string): Promise<void> {
    this.written.delete(name)
    await this.staged.delete(name)
    await this.target.delete(name)
  }

  async names(): Promise<string[]> {
    return [...new Set([...(await this.target.names()), ...this.written])].sort()
  }

  async fingerprint(name: string): Promise<string | undefined> {
    return this.written.has(name) ? this.staged.fingerprint(name) : this.target.fingerprint(name)
  }

  /** Tables written so far, in name order. */
  writtenTables(): string[] {
    return [...this.written].sort()
  }

  /** Moves every staged table into the index (one rename each) and removes the staging folder. */
  async commit(): Promise<void> {
    await mkdir(this.target.location, { recursive: true })
    for (const name of this.writtenTables()) await rename(this.staged.path(name), this.target.path(name))
    this.written.clear()
    await rm(this.stagingDir, { recursive: true, force: true })
  }

  async discard(): Promise<void> {
    this.written.clear()
    await rm(this.stagingDir, { recursive: true, force: true })
  }
}

/** Removes staging folders a crashed run left behind. */
export async function clearStaging(stagingRoot: string): Promise<void> {
  const entries = await unlessAbsent(stagingRoot, 'clear staging folder', () => readdir(stagingRoot), [])
  for (const entry of entries) await rm(join(stagingRoot, entry), { recursive: true, force: true })
}
