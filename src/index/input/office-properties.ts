/**
 * Author, title and created date of an Office Open XML file (.docx, .xlsx) from its
 * `docProps/core.xml` part; neither mammoth nor read-excel-file exposes them. Only that one part is
 * inflated (fflate's filter); a file without it simply has no such metadata.
 */
import { unzipSync } from 'fflate'
import { Parser } from 'htmlparser2'
import { UnreadableTextError } from './decode-text.js'

interface CoreProperties {
  author?: string
  title?: string
  created?: string
}

const CORE = 'docProps/core.xml'
const FIELDS: Record<string, keyof CoreProperties> = {
  'dc:creator': 'author',
  'dc:title': 'title',
  'dcterms:created': 'created',
}

/** The core properties of an OOXML zip; the caller has already checked that the bytes are a zip. */
export function coreProperties(bytes: Uint8Array): CoreProperties {
  let part: Uint8Array | undefined
  try {
    part = unzipSync(bytes, { filter: (file) => file.name === CORE })[CORE]
  } catch (cause) {
    throw new UnreadableTextError(`not a readable zip archive (${(cause as Error).message})`)
  }
  if (part === undefined) return {}
  const properties: CoreProperties = {}
  let field: keyof CoreProperties | undefined
  let value = ''
  const parser = new Parser(
    {
      onopentag(name) {
        field = FIELDS[name]
        value = ''
      },
      ontext(text) {
        if (field !== undefined) value += text
      },
      onclosetag() {
        const trimmed = value.trim()
        if (field !== undefined && trimmed !== '') properties[field] = trimmed
        field = undefined
      },
    },
    { xmlMode: true, decodeEntities: true },
  )
  parser.write(new TextDecoder('utf-8').decode(part))
  parser.end()
  return properties
}
