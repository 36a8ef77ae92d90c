/** HTML input: one document per page, its text rendered by html-text; <title> and <meta> author/date as metadata. */
import { htmlToText } from './html-text.js'
import { fileDocument, metadataRow, type FileDocuments } from './rows.js'

export function readHtml(html: string, path: string, creationDate: string): FileDocuments {
  const { text, metadata } = htmlToText(html)
  const fields = metadataRow({ author: metadata.author, document_title: metadata.title, created: metadata.created })
  return fileDocument(text, path, creationDate, fields, 'no text')
}
