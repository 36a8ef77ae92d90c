/**
 * PDF input through pdf.js (the serverless build bundled by unpdf: no canvas, no worker, no native
 * code). Pages are read one at a time and appended to the text, so a long PDF is held once; pages are
 * joined with a blank line, lines within a paragraph with a newline. Encrypted, corrupt and scanned
 * (text-free) files are rejected with the reason.
 */
import { getResolvedPDFJS } from 'unpdf'
import { UnreadableTextError } from './decode-text.js'
import { pageText, type PdfTextItem } from './pdf-layout.js'
import { fileDocument, metadataRow, type FileDocuments } from './rows.js'

type PdfJs = Awaited<ReturnType<typeof getResolvedPDFJS>>
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>

const NO_TEXT_LAYER = 'no text layer: run OCR first'

export async function readPdf(bytes: Uint8Array, path: string, creationDate: string): Promise<FileDocuments> {
  const pdfjs = await getResolvedPDFJS()
  // pdf.js refuses a Node Buffer; a plain view of the same memory (it may take it over) will do.
  const pdf = await openPdf(pdfjs, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  try {
    const warnings: string[] = []
    const scanned: number[] = []
    let text = ''
    for (let number = 1; number <= pdf.numPages; number++) {
      let page: string
      try {
        page = await readPage(pdf, number, pdfjs, scanned)
      } catch (cause) {
        warnings.push(`${path}: page ${number} skipped: ${(cause as Error).message}`)
        continue
      }
      if (page !== '') text += (text === '' ? '' : '\n\n') + page
    }
    if (text !== '' && scanned.length > 0) {
      warnings.push(`${path}: page(s) ${scanned.join(', ')} hold only images (scanned?): run OCR to index their text`)
    }
    const result = fileDocument(
      text,
      path,
      creationDate,
      await metadataOf(pdf, pdfjs, path, warnings),
      pdf.numPages === 0 ? 'no pages' : NO_TEXT_LAYER,
    )
    return { documents: result.documents, warnings }
  } finally {
    await pdf.destroy()
  }
}

async function openPdf(pdfjs: PdfJs, bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // verbosity 0: pdf.js reports font and structure quirks on the console; only errors matter here.
    return await pdfjs.getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise
  } catch (cause) {
    const error = cause as Error
    if (error.name === 'PasswordException') throw new UnreadableTextError('encrypted PDF: it needs a password to open')
    throw new UnreadableTextError(`not a readable PDF (${error.message})`)
  }
}

/** One page's text; an empty page that paints images is noted in `scanned`. */
async function readPage(pdf: PdfDocument, number: number, pdfjs: PdfJs, scanned: number[]): Promise<string> {
  const page = await pdf.getPage(number)
  try {
    const content = await page.getTextContent()
    const text = pageText(content.items.flatMap((item): PdfTextItem[] => ('str' in item ? [item] : [])))
    if (text === '' && (await paintsImages(page, pdfjs))) scanned.push(number)
    return text
  } finally {
    page.cleanup()
  }
}

async function paintsImages(page: Awaited<ReturnType<PdfDocument['getPage']>>, pdfjs: PdfJs): Promise<boolean> {
  const { OPS } = pdfjs
  const images = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
  ])
  const operators = await page.getOperatorList()
  return operators.fnArray.some((op) => images.has(op))
}

/** Page count and the info dictionary's author, title and date; a broken info dictionary costs only those three. */
async function metadataOf(pdf: PdfDocument, pdfjs: PdfJs, path: string, warnings: string[]) {
  let info: Record<string, unknown> = {}
  try {
    info = (await pdf.getMetadata()).info as Record<string, unknown>
  } catch (cause) {
    warnings.push(`${path}: document properties unreadable (${(cause as Error).message}); text indexed without them`)
  }
  const text = (key: string): string | undefined =>
    typeof info[key] === 'string' ? (info[key] as string).trim() : undefined
  const date = text('CreationDate') === undefined ? null : pdfjs.PDFDateString.toDateObject(text('CreationDate')!)
  return metadataRow({
    page_count: pdf.numPages,
    author: text('Author'),
    document_title: text('Title'),
    created: date === null ? undefined : date.toISOString().replace('.000Z', 'Z'),
  })
}
