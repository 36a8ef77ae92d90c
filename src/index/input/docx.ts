/**
 * Word (.docx) input: mammoth turns the document into HTML (headings, lists, tables kept as
 * elements; images dropped unread), which html-text renders as plain text. Author, title and created
 * date come from the file's core properties.
 */
import mammoth from 'mammoth'
import { UnreadableTextError } from './decode-text.js'
import { htmlToText } from './html-text.js'
import { coreProperties } from './office-properties.js'
import { fileDocument, metadataRow, type FileDocuments } from './rows.js'

/** Refuses bytes that are not a zip archive, naming what they look like instead. */
export function assertZip(bytes: Uint8Array, format: string): void {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new UnreadableTextError(
      `not a ${format} file: it is an encrypted or legacy Office file (save it as ${format} without a password)`,
    )
  }
  throw new UnreadableTextError(`not a ${format} file (not a zip archive)`)
}

export async function readDocx(bytes: Uint8Array, path: string, creationDate: string): Promise<FileDocuments> {
  assertZip(bytes, '.docx')
  let html: string
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    html = (
      await mammoth.convertToHtml(
        { buffer },
        { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
      )
    ).value
  } catch (cause) {
    throw new UnreadableTextError(`not a readable .docx file (${(cause as Error).message})`)
  }
  const properties = coreProperties(bytes)
  const metadata = metadataRow({
    author: properties.author,
    document_title: properties.title,
    created: properties.created,
  })
  return fileDocument(htmlToText(html).text, path, creationDate, metadata, 'no text')
}
