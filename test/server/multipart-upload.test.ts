/**
 * Issue 47 item 11: a malformed multipart upload is a 400 naming what is wrong (it was a 500 with a
 * stack trace): a line break inside a file name, RFC 5987 `filename*=`, a body that is not multipart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = offlineFastSettingsYaml()

const BOUNDARY = 'graphrag-test-boundary'

function part(disposition: string, content = 'Captain Elsa Marr sailed the Windward.\n'): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`
}

describe('POST /documents with a malformed multipart body', () => {
  let server: RunningServer
  beforeAll(async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS, 'input/a.txt': 'Tobias Venn kept the harbour log.\n' })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  const post = (body: string, type = `multipart/form-data; boundary=${BOUNDARY}`) =>
    fetch(`${server.url}/documents?update=false`, { method: 'POST', body, headers: { 'content-type': type } })
  const error = async (res: Response) => ({
    status: res.status,
    message: ((await res.json()) as { error: { message: string } }).error.message,
  })

  it.each([
    [
      'a line break in the file name',
      part('filename="harbour\r\nlog.txt"'),
      'part 1: the file name holds a line break',
    ],
    [
      'an RFC 5987 file name',
      part(`filename*=UTF-8''%E2%82%AC%20rates.txt`),
      'part 1: filename*= (RFC 5987) is not supported; send the file name as filename="…" in UTF-8',
    ],
    [
      'a bad second part',
      part('filename="ok.txt"') + part('filename="bad\nname.txt"'),
      'part 2: the file name holds a line break',
    ],
  ])('%s: 400 with the reason', async (_, body, reason) => {
    expect(await error(await post(`${body}--${BOUNDARY}--\r\n`))).toEqual({ status: 400, message: `upload: ${reason}` })
  })

  it('a multipart Content-Type without a boundary: 400 saying so', async () => {
    expect(await error(await post(`${part('filename="a.txt"')}--${BOUNDARY}--\r\n`, 'multipart/form-data'))).toEqual({
      status: 400,
      message: 'upload: the multipart Content-Type names no boundary',
    })
  })

  it('a well-formed upload is still stored', async () => {
    const res = await post(`${part('filename="fine.txt"')}--${BOUNDARY}--\r\n`)
    expect(res.status, await res.clone().text()).toBe(201)
    const { documents } = (await res.json()) as { documents: Array<{ file: string }> }
    expect(documents.map((d) => d.file)).toEqual(['fine.txt'])
  })
})
