/**
 * Issue 47 item 12: a refused S3 credential is named — which key was refused and where it came
 * from, never the secret — instead of "access refused (Unknown) … UnknownError". On the S3 test
 * server, which checks the key id (neither it nor moto checks the secret's signature).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { S3Store } from '../../src/storage/object/s3.js'
import { useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()

describe('S3: a refused credential', () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env.AWS_ACCESS_KEY_ID = saved.AWS_ACCESS_KEY_ID
    process.env.AWS_SECRET_ACCESS_KEY = saved.AWS_SECRET_ACCESS_KEY
  })

  it('an access key the server does not know is named (masked) with its source, and the secret never appears', async () => {
    const bucket = await servers.s3.bucket(`cred${Date.now()}`)
    process.env.AWS_ACCESS_KEY_ID = 'WRONGKEY7788'
    process.env.AWS_SECRET_ACCESS_KEY = 'secret-that-must-not-show'
    const store = new S3Store({ bucket, endpointUrl: servers.s3.endpoint })
    const error = await store.check('output_storage').then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(error?.message).toBe(
      `output_storage (s3://${bucket}): access refused when trying to list: the server does not know the access key WRON…7788 (from AWS_ACCESS_KEY_ID)`,
    )
    expect(error?.message).not.toContain('secret-that-must-not-show')
  })
})
