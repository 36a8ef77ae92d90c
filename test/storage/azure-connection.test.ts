import { describe, expect, it } from 'vitest'
import { parseAzureConnectionString } from '../../src/storage/object/azure-connection.js'
import { lanceStorageOptions } from '../../src/storage/object/remote.js'
import { NO_REMOTE_KEYS } from '../support/object-stores.js'

const lance = (connectionString: string) =>
  lanceStorageOptions({ ...NO_REMOTE_KEYS, type: 'blob', base_dir: 'out', connection_string: connectionString })

describe('Azure connection strings (one reader for the blob client and LanceDB)', () => {
  it('derives the endpoint from the account, protocol and suffix; keys are case-insensitive', () => {
    const text = 'defaultendpointsprotocol=http;ACCOUNTNAME=acme;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn'
    expect(parseAzureConnectionString(text)).toEqual({
      accountName: 'acme',
      accountKey: 'a2V5',
      url: 'http://acme.blob.core.chinacloudapi.cn',
    })
    // LanceDB derives the endpoint itself: only a named one is passed on.
    expect(lance(text)).toEqual({ azure_storage_account_name: 'acme', azure_storage_account_key: 'a2V5' })
  })

  it('a named BlobEndpoint (trailing slash dropped) and a SAS', () => {
    const text = 'BlobEndpoint=http://127.0.0.1:10000/acct/;SharedAccessSignature=sv=2024&sig=abc'
    expect(parseAzureConnectionString(text)).toEqual({
      accountName: '',
      accountKey: '',
      sas: 'sv=2024&sig=abc',
      endpoint: 'http://127.0.0.1:10000/acct',
      url: 'http://127.0.0.1:10000/acct',
    })
    expect(lance(text)).toEqual({
      azure_storage_sas_key: 'sv=2024&sig=abc',
      azure_storage_endpoint: 'http://127.0.0.1:10000/acct',
      allow_http: 'true',
    })
  })

  it("UseDevelopmentStorage=true is Azurite's account, for LanceDB too", () => {
    const parsed = parseAzureConnectionString('UseDevelopmentStorage=true')
    expect(parsed.url).toBe('http://127.0.0.1:10000/devstoreaccount1')
    expect(lance('UseDevelopmentStorage=true')).toMatchObject({
      azure_storage_account_name: 'devstoreaccount1',
      azure_storage_endpoint: 'http://127.0.0.1:10000/devstoreaccount1',
      allow_http: 'true',
    })
  })
})
