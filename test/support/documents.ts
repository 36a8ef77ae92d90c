/**
 * Writes small PDF, Word and Excel files for the input tests with libraries made for writing each
 * format (pdfkit, docx, exceljs), so no binary fixture is committed.
 */
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import ExcelJS from 'exceljs'
import PDFDocument from 'pdfkit'

const CREATED = new Date(Date.UTC(2024, 0, 2, 3, 4, 5))

export interface PdfOptions {
  /** Each page is a list of paragraphs (a paragraph may wrap over several lines); an empty page gets only an image, as a scanner makes. */
  pages: string[][]
  author?: string
  title?: string
  userPassword?: string
}

export function makePdf(options: PdfOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      autoFirstPage: false,
      // pdfkit hashes every info value, so absent ones must be left out rather than undefined.
      info: {
        CreationDate: CREATED,
        ...(options.author && { Author: options.author }),
        ...(options.title && { Title: options.title }),
      },
      ...(options.userPassword === undefined
        ? {}
        : { userPassword: options.userPassword, ownerPassword: 'owner', pdfVersion: '1.7' }),
    })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    doc.on('error', reject)
    for (const paragraphs of options.pages) {
      doc.addPage()
      if (paragraphs.length === 0) {
        doc.image(PIXEL_PNG, 72, 72, { width: 300, height: 400 })
        continue
      }
      paragraphs.forEach((paragraph, i) => {
        if (i > 0) doc.moveDown()
        doc.fontSize(i === 0 ? 16 : 11).text(paragraph)
      })
    }
    doc.end()
  })
}

// A 1x1 grey PNG: the "scan" of an image-only page.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  'base64',
)

/** The minutes used by the docx tests, or (with `paragraphs`) a document of plain paragraphs. */
export async function makeDocx(paragraphs?: readonly string[]): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] })
  const doc = new Document({
    creator: 'Ana Ruiz',
    title: 'Harbour minutes',
    sections: [
      {
        children: paragraphs?.map((text) => new Paragraph(text)) ?? [
          new Paragraph({ text: 'Harbour Minutes', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('The council met on Monday.'),
          new Paragraph('It voted to repair the pier.'),
          new Paragraph({ text: 'Ferry timetable', bullet: { level: 0 } }),
          new Paragraph({ text: 'Lighthouse budget', bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Item'), cell('Cost')] }),
              new TableRow({ children: [cell('Pier'), cell('1200')] }),
            ],
          }),
          new Paragraph('Adjourned at noon.'),
        ],
      },
    ],
  })
  return new Uint8Array(await Packer.toBuffer(doc))
}

export async function makeXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Ana Ruiz'
  workbook.created = CREATED
  workbook.title = 'Harbour ledger'
  const ships = workbook.addWorksheet('Ships')
  ships.addRow(['name', 'text', 'tons', 'arrived'])
  ships.addRow(['Aurora', 'Brought grain from Leith.', 120, new Date(Date.UTC(2024, 2, 1))])
  ships.addRow(['Blue Heron', 'Left for Bergen.', 80.5, new Date(Date.UTC(2024, 2, 3))])
  const notes = workbook.addWorksheet('Notes')
  notes.addRow(['remark'])
  notes.addRow(['Storm warning on Friday'])
  return new Uint8Array(await workbook.xlsx.writeBuffer())
}
