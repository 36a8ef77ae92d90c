/**
 * The test run's shared object-storage servers (test/support/object-store-servers.ts): a file gets the
 * run's Azurite and s3rver rather than starting its own, its containers and buckets are its own even
 * where another file asks for the same name, and a file ending does not stop the servers others use.
 */
import { describe, expect, inject, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { useObjectStoreServers } from '../support/object-stores.js'
import { azuriteAt, S3RVER_KEY, s3At } from '../support/store-servers.js'

const servers = useObjectStoreServers()
const keepRunning = async (): Promise<void> => {}

describe('the run-wide object-storage servers', () => {
  it('are the ones the run started, not servers of the file', () => {
    const ports = inject('objectStorePorts')
    expect(ports, 'the globalSetup provided no servers').toBeDefined()
    expect(servers.azurite.port).toBe(ports?.azurite)
    expect(servers.s3.endpoint).toBe(`http://127.0.0.1:${ports?.s3}`)
  })

  it('give two files asking for the same container or bucket name two of their own', async () => {
    const name = `same${Date.now()}`
    const other = {
      azurite: azuriteAt(servers.azurite.port, keepRunning),
      s3: s3At(Number(new URL(servers.s3.endpoint).port), S3RVER_KEY, keepRunning),
    }
    const [mine, theirs] = [await servers.azurite.container(name), await other.azurite.container(name)]
    expect(mine).not.toBe(theirs)
    const connectionString = servers.azurite.connectionString
    await new AzureBlobStore({ connectionString, containerName: mine }).put('k.txt', 'mine')
    expect(await new AzureBlobStore({ connectionString, containerName: theirs }).get('k.txt')).toBeUndefined()
    const [myBucket, theirBucket] = [await servers.s3.bucket(name), await other.s3.bucket(name)]
    expect(myBucket).not.toBe(theirBucket)
    await new S3Store({ bucket: myBucket, endpointUrl: servers.s3.endpoint }).put('k.txt', 'mine')
    expect(await new S3Store({ bucket: theirBucket, endpointUrl: servers.s3.endpoint }).get('k.txt')).toBeUndefined()
  })

  it('keep running when a file stops its handles', async () => {
    await Promise.all([servers.azurite.stop(), servers.s3.stop()])
    const container = await servers.azurite.container(`after${Date.now()}`)
    await new AzureBlobStore({ connectionString: servers.azurite.connectionString, containerName: container }).put(
      'k.txt',
      'x',
    )
    const bucket = await servers.s3.bucket(`after${Date.now()}`)
    await new S3Store({ bucket, endpointUrl: servers.s3.endpoint }).put('k.txt', 'x')
  })
})
