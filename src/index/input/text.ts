/** Plain-text input: one document per file, titled with the file's basename, id = SHA-512 of the text. */
import { posix } from 'node:path'
import { sha512, type FileDocuments } from './rows.js'

export function readTextFile(text: string, path: string, creationDate: string): FileDocuments {
  return {
    documents: [{ id: sha512(text), text, title: posix.basename(path), creation_date: creationDate, raw_data: null }],
    warnings: [],
  }
}
