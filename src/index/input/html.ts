/** HTML input: one document per page, its text rendered by html-text; <title> and <meta> author/date as metadata. */
import { htmlToText } from './html-text.js'
import { fileDocument, metadataRow, type FileDocuments } from './rows.js'

export function readHtml(html: string, path: string, creationDate: string): FileDocuments {
  const { text, metadata } = htmlToText(html)
  return fileDocument(text, path, creationDate, metadataRow({ author: metadata.author, document_title: metadata.title, created: metadata.created }), 'no text')
}
