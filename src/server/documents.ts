/**
 * Documents over HTTP: the input files as the indexer reads them, each document with its status
 * against the published index (matched by id, then by title as `graphrag update` does), uploads
 * checked by content before anything is stored, and deletion of a document's file.
 *
 * Status: `indexed` (in the index as it is now), `new` / `edited` (waiting for an update), `deleted`
 * (its file is gone; the index keeps it until the next update).
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { LoadedConfig } from '../config/index.js'
import { RequestError } from '../errors.js'
import { UnreadableTextError } from '../index/input/decode-text.js'
import { isFsError, readOptionsFor, type LoadOptions } from '../index/input/load-documents.js'
import { readInputFile } from '../index/input/read-file.js'
import { column, defineTable, nullableColumn, type RowOf } from '../model/schema.js'
import { readableIndexDir } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { sniffUpload } from './file-sniff.js'
import { InputStore, type InputFile } from './input-store.js'

export type DocumentStatus = 'indexed' | 'new' | 'edited' | 'deleted' | 'skipped' | 'failed'

export interface DocumentEntry {
  /** The document id (SHA-512 of its text unless input.id_column says otherwise): DELETE /documents/{id}. */
  id: string
  title: string
  /** Bytes: the file's size, or the document's text for a file of several documents (csv rows) or a deleted one. */
  size: number
  /** ISO time the file was stored (or, for a deleted document, when it was read). */
  added: string
  /** Text units in the index (0 until indexed). */
  text_units: number
  status: DocumentStatus
  /** Its file in input_storage (null once deleted). */
  file: string | null
  /** Why a file gives no document: skipped (no readable text, the indexer's warning) or failed (could not be read). */
  reason?: string
}

/** The columns of documents.parquet the listing needs (not the text of every document). */
const INDEXED_DOCUMENTS = defineTable('documents', [
  column('id', 'string'),
  column('title', 'string'),
  column('text_unit_ids', 'list<string>'),
  column('creation_date', 'string'),
  nullableColumn('text', 'string'),
] as const)

type IndexedDocument = RowOf<typeof INDEXED_DOCUMENTS>

interface FileDocs {
  size: number
  mtimeMs: number
  docs: Array<{ id: string; title: string; bytes: number }>
  /** Set when the file gives no document: what the indexer will do with it and why. */
  problem?: { status: 'skipped' | 'failed'; reason: string }
}

export interface UploadLimits {
  maxExpandedBytes: number
}

export class DocumentCatalog {
  /** What each input file gave when last read, by path; read again when its size or time changes. */
  private readonly read = new Map<string, FileDocs>()
  private indexed: { version: string; rows: IndexedDocument[] } | undefined

  constructor(private readonly config: () => LoadedConfig) {}

  private inputOptions(): LoadOptions {
    const { settings } = this.config()
    return { ...settings.input, baseDir: settings.input_storage.base_dir }
  }

  async list(): Promise<DocumentEntry[]> {
    const options = this.inputOptions()
    const store = new InputStore(options)
    const files = await store.list()
    const indexed = await this.indexedDocuments()
    const byId = new Map(indexed.map((d) => [d.id, d]))
    const indexedTitles = new Set(indexed.map((d) => d.title))
    const entries: DocumentEntry[] = []
    for (const file of files) {
      const { docs, problem } = await this.documentsOf(options, file)
      if (problem !== undefined) entries.push(problemEntry(file, problem))
      for (const doc of docs) {
        const inIndex = byId.get(doc.id)
        entries.push({
          id: doc.id,
          title: doc.title,
          size: docs.length === 1 ? file.size : doc.bytes,
          added: file.modified.toISOString(),
          text_units: inIndex?.text_unit_ids.length ?? 0,
          status: inIndex !== undefined ? 'indexed' : indexedTitles.has(doc.title) ? 'edited' : 'new',
          file: file.path,
        })
      }
    }
    const inputIds = new Set(entries.map((e) => e.id))
    const inputTitles = new Set(entries.map((e) => e.title))
    for (const doc of indexed) {
      if (inputIds.has(doc.id) || inputTitles.has(doc.title)) continue
      entries.push({
        id: doc.id,
        title: doc.title,
        size: Buffer.byteLength(doc.text ?? ''),
        added: isoDate(doc.creation_date),
        text_units: doc.text_unit_ids.length,
        status: 'deleted',
        file: null,
      })
    }
    return entries
  }

  /**
   * Checks every file (name, type by content, declared zip expansion, and that the indexer gets a
   * document from it) before storing any; returns the stored files' entries.
   */
  async upload(files: readonly File[], limits: UploadLimits): Promise<DocumentEntry[]> {
    if (files.length === 0) throw new RequestError(400, 'file: attach one or more files (multipart field "file")')
    const named = await Promise.all(
      files.map(async (file) => ({ name: safeFileName(file.name), bytes: new Uint8Array(await file.arrayBuffer()) })),
    )
    return this.store(named, limits)
  }

  /**
   * Stores files under their names (relative paths in input_storage) once every one passed the
   * checks of an upload; returns their entries.
   */
  async store(
    files: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
    limits: UploadLimits,
  ): Promise<DocumentEntry[]> {
    const options = this.inputOptions()
    const store = new InputStore(options)
    const seen = new Set<string>()
    const scratch = await mkdtemp(join(tmpdir(), 'graphrag-upload-'))
    try {
      for (const { name, bytes } of files) {
        if (seen.has(name)) throw new RequestError(400, `${name}: sent twice in one upload`)
        seen.add(name)
        await checkUpload(name, bytes, options, store, scratch, limits)
      }
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
    for (const { name, bytes } of files) await store.write(name, bytes)
    return (await this.list()).filter((e) => e.file !== null && seen.has(e.file))
  }

  /** Whether there is a published index to update. */
  async hasIndex(): Promise<boolean> {
    return (await this.indexedDocuments()).length > 0
  }

  /** Removes the file of document `id`; a file holding several documents (csv rows) is not cut apart. */
  async remove(id: string): Promise<DocumentEntry> {
    const entries = await this.list()
    const entry = entries.find((e) => e.id === id)
    if (entry === undefined) throw new RequestError(404, `no document ${id}`)
    if (entry.file === null)
      throw new RequestError(404, `document ${id} was already deleted; the next update removes it from the index`)
    const siblings = entries.filter((e) => e.file === entry.file).length
    if (siblings > 1)
      throw new RequestError(
        409,
        `document ${id} is one of ${siblings} documents of ${entry.file}; edit that file, or delete the whole file from input storage`,
      )
    await new InputStore(this.inputOptions()).remove(entry.file)
    this.read.delete(entry.file)
    return { ...entry, status: 'deleted', file: null }
  }

  private async documentsOf(options: LoadOptions, file: InputFile): Promise<FileDocs> {
    const known = this.read.get(file.path)
    if (known !== undefined && known.size === file.size && known.mtimeMs === file.modified.getTime()) return known
    let docs: FileDocs['docs'] = []
    let problem: FileDocs['problem']
    try {
      const result = await readInputFile(options.baseDir, file.path, options.type, readOptionsFor(options))
      docs = result.documents.map((d) => ({ id: d.id, title: d.title, bytes: Buffer.byteLength(d.text) }))
      if (docs.length === 0) problem = { status: 'skipped', reason: result.warnings[0] ?? 'no document in it' }
    } catch (error) {
      // The indexer skips a file without readable text with a warning, and a file-system error (a file
      // removed since it was listed, no permission) fails its read: both are listed with the reason.
      // Anything else is a fault.
      if (error instanceof UnreadableTextError) problem = { status: 'skipped', reason: error.message }
      else if (isFsError(error)) problem = { status: 'failed', reason: `${error.code}: ${error.message}` }
      else throw error
    }
    const entry = { size: file.size, mtimeMs: file.modified.getTime(), docs, ...(problem ? { problem } : {}) }
    this.read.set(file.path, entry)
    return entry
  }

  /** The published documents table, read again only when a publish replaced it. */
  private async indexedDocuments(): Promise<IndexedDocument[]> {
    const { settings } = this.config()
    const dir = await readableIndexDir(settings.output_storage.base_dir)
    const file = join(dir, `${INDEXED_DOCUMENTS.name}.parquet`)
    // A publish writes a new file (new inode and time); an unchanged table is the same file, hard-linked.
    const version = await stat(file).then(
      (s) => `${file}:${s.ino}:${s.size}:${s.mtimeMs}`,
      () => undefined,
    )
    if (version === undefined) return []
    if (this.indexed?.version !== version)
      this.indexed = { version, rows: await new ParquetTableStore(dir).read(INDEXED_DOCUMENTS) }
    return this.indexed.rows
  }
}

async function checkUpload(
  name: string,
  bytes: Uint8Array,
  options: LoadOptions,
  store: InputStore,
  scratch: string,
  limits: UploadLimits,
): Promise<void> {
  const sniffed = sniffUpload(name, bytes, limits.maxExpandedBytes)
  if (!sniffed.ok) throw new RequestError(sniffed.status, `${name}: ${sniffed.reason}`)
  if (!store.selects(name))
    throw new RequestError(
      415,
      `${name}: input.type ${options.type}${options.file_pattern === null ? '' : ` with file_pattern ${options.file_pattern}`} does not read this file; set input.type: auto to index every supported format`,
    )
  await mkdir(dirname(join(scratch, name)), { recursive: true })
  await writeFile(join(scratch, name), bytes)
  try {
    const result = await readInputFile(scratch, name, options.type, readOptionsFor(options))
    if (result.documents.length === 0) throw new UnreadableTextError(result.warnings[0] ?? 'no rows')
  } catch (error) {
    if (error instanceof UnreadableTextError)
      throw new RequestError(415, `${name}: gives no document: ${error.message}`)
    throw error
  }
}

const MAX_NAME = 200

/** A plain file name: no folders, no hidden files, no control characters. */
export function safeFileName(raw: string): string {
  const name = raw.normalize('NFC').trim()
  if (
    name === '' ||
    name.length > MAX_NAME ||
    name.startsWith('.') ||
    /[/\\]/.test(name) ||
    /[\u0000-\u001f\u007f]/.test(name)
  )
    throw new RequestError(
      400,
      `file name ${JSON.stringify(raw.slice(0, MAX_NAME))}: expected a plain file name (no folders, not hidden, at most ${MAX_NAME} characters)`,
    )
  return name
}

/** The entry of a file that gives no document; its id is its path (no document id exists). */
function problemEntry(file: InputFile, problem: NonNullable<FileDocs['problem']>): DocumentEntry {
  return {
    id: file.path,
    title: file.path,
    size: file.size,
    added: file.modified.toISOString(),
    text_units: 0,
    status: problem.status,
    file: file.path,
    reason: problem.reason,
  }
}

function isoDate(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toISOString()
}
