/** Plain-text input: one document per file, titled with the file's basename, id = SHA-512 of the text. */
import { fileDocument, type FileDocuments } from './rows.js'

export function readTextFile(text: string, path: string, creationDate: string): FileDocuments {
  return fileDocument(text, path, creationDate, null, 'empty file')
}
