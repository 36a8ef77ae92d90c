/**
 * The S3 backend's conditional writes, lock and pointer against moto's S3 server, which (unlike
 * s3rver, used elsewhere) implements If-None-Match and If-Match as AWS S3 does. Skips, saying so,
 * where moto 5.1 or later is not installed (`pip install 'moto[server]'`).
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { NO_REMOTE_KEYS, type S3Server, startMoto } from '../support/object-stores.js'
import { conditionalWritesContract } from './conditional-writes.case.js'
import { snapshotEnv } from '../support/env-snapshot.js'

const moto = await startMoto()
if (moto === undefined)
  console.warn('skipped: moto 5.1+ is not installed, so S3 conditional writes are not checked here')

describe.skipIf(moto === undefined)('S3 conditional writes on moto', () => {
  const server = moto as S3Server
  const restoreEnv = snapshotEnv()
  beforeAll(() => {
    Object.assign(process.env, server.env)
  })
  afterAll(async () => {
    restoreEnv()
    await server.stop()
  })
  let n = 0
  conditionalWritesContract(
    'moto',
    async () => new S3Store({ bucket: await server.bucket(`moto-${Date.now()}-${n++}`), endpointUrl: server.endpoint }),
    (store, baseDir) =>
      remoteLocation('output_storage', {
        ...NO_REMOTE_KEYS,
        type: 's3',
        base_dir: baseDir,
        bucket: store.location.slice('s3://'.length),
        endpoint_url: server.endpoint,
      }),
  )
})
