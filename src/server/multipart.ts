/**
 * The form of an upload (POST /documents). The platform's parser refuses a malformed body without
 * saying why ("Failed to parse body as FormData"), which reached the client as a 500; here the
 * body is parsed the same way, and a refusal becomes a 400 naming what is wrong with it.
 */
import { RequestError } from '../errors.js'

/** The files of the upload's multipart field `field`. */
export async function uploadedFiles(request: Request, field: string): Promise<File[]> {
  const type = request.headers.get('content-type') ?? ''
  const body = new Uint8Array(await request.arrayBuffer())
  try {
    const form = await new Response(body, { headers: { 'content-type': type } }).formData()
    // undici's File and node:buffer's File are one class at run time; their declarations differ.
    return form.getAll(field).filter((entry) => typeof entry !== 'string') as unknown as File[]
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    throw new RequestError(400, `upload: ${malformation(type, body)}`)
  }
}

/** Why a multipart body did not parse, as far as can be told from its part headers. */
function malformation(contentType: string, body: Uint8Array): string {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (boundary === null) return 'the multipart Content-Type names no boundary'
  // latin1: one character per byte, so header bytes are seen as sent whatever their encoding.
  const text = Buffer.from(body).toString('latin1')
  const parts = text.split(`--${boundary[1] ?? boundary[2]}`).slice(1, -1)
  if (parts.length === 0) return 'the body holds no part delimited by the boundary the Content-Type names'
  for (const [i, part] of parts.entries()) {
    const end = part.indexOf('\r\n\r\n')
    const headers = (end < 0 ? part : part.slice(0, end)).replace(/^\r\n/, '')
    if (/filename\*\s*=/i.test(headers))
      return `part ${i + 1}: filename*= (RFC 5987) is not supported; send the file name as filename="…" in UTF-8`
    if (/filename="[^"\r\n]*[\r\n]/i.test(headers)) return `part ${i + 1}: the file name holds a line break`
    if (end < 0) return `part ${i + 1}: its headers do not end (no blank line before the content)`
  }
  return 'the body is not valid multipart/form-data'
}
