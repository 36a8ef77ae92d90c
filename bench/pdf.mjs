// PDF text extraction speed (input.type pdf) in pages/s, on a 300-page PDF generated here with pdfkit
// (45 lines of demo-corpus text per page), plus the process's peak resident memory next to the text size.
// Run after `npx tsc -p tsconfig.build.json`: node bench/pdf.mjs [repeats]
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import PDFDocument from 'pdfkit'
import { readPdf } from '../dist/index/input/pdf.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const REPEATS = Number(process.argv[2] ?? 3)
const PAGES = 300
const LINES = 45

function corpusLines() {
  const dir = join(root, 'fixtures', 'demo', 'input')
  const words = readdirSync(dir)
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/\s+/))
    .filter(Boolean)
  const lines = []
  for (let i = 0; i + 14 <= words.length; i += 14) lines.push(words.slice(i, i + 14).join(' '))
  return lines
}

function makePdf() {
  const lines = corpusLines()
  return new Promise((resolvePdf) => {
    const doc = new PDFDocument({ autoFirstPage: false })
    const chunks = []
    doc.on('data', (c) => chunks.push(c))
    doc.on('end', () => resolvePdf(new Uint8Array(Buffer.concat(chunks))))
    let n = 0
    for (let p = 0; p < PAGES; p++) {
      doc.addPage().fontSize(10)
      for (let l = 0; l < LINES; l++) doc.text(lines[n++ % lines.length], 50, 50 + l * 15, { lineBreak: false })
    }
    doc.end()
  })
}

const bytes = await makePdf()
const seconds = []
let textChars = 0
for (let i = 0; i < REPEATS; i++) {
  const started = performance.now()
  const { documents } = await readPdf(new Uint8Array(bytes), 'bench.pdf', '')
  seconds.push((performance.now() - started) / 1000)
  textChars = documents[0].text.length
}
const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]
console.log(
  `pdf text extraction: ${(PAGES / median).toFixed(0)} pages/s (median of ${REPEATS}, ${PAGES}-page generated PDF of ${(bytes.length / 1e6).toFixed(1)} MB)`,
)
console.log(
  `  text ${(textChars / 1e6).toFixed(2)} M chars; peak resident memory of the process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
)
