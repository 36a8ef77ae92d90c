/**
 * An Azure Storage connection string, read once for the blob client (azure-blob.ts) and for LanceDB's
 * storage options (remote.ts). Keys are case-insensitive; `UseDevelopmentStorage=true` is Azurite's
 * well-known account on 127.0.0.1:10000.
 */

export interface AzureConnection {
  accountName: string
  accountKey: string
  sas?: string
  /** The blob endpoint the string names (BlobEndpoint, or Azurite's); undefined when it is derived. */
  endpoint?: string
  /** The blob endpoint to call, named or derived from the account and suffix, without a trailing slash. */
  url: string
}

/** Azurite's published development account (documented by Microsoft; not a secret). */
const DEVELOPMENT_STORAGE = {
  accountName: 'devstoreaccount1',
  accountKey: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  endpoint: 'http://127.0.0.1:10000/devstoreaccount1',
}

export function parseAzureConnectionString(text: string): AzureConnection {
  const parts = new Map<string, string>()
  for (const piece of text.split(';')) {
    const at = piece.indexOf('=')
    if (at > 0) parts.set(piece.slice(0, at).trim().toLowerCase(), piece.slice(at + 1).trim())
  }
  if (parts.get('usedevelopmentstorage') === 'true')
    return { ...DEVELOPMENT_STORAGE, url: DEVELOPMENT_STORAGE.endpoint }
  const accountName = parts.get('accountname') ?? ''
  const sas = parts.get('sharedaccesssignature')
  const endpoint = parts.get('blobendpoint')?.replace(/\/+$/, '') || undefined
  const derived = `${parts.get('defaultendpointsprotocol') ?? 'https'}://${accountName}.blob.${parts.get('endpointsuffix') ?? 'core.windows.net'}`
  return {
    accountName,
    accountKey: parts.get('accountkey') ?? '',
    ...(sas === undefined ? {} : { sas }),
    ...(endpoint === undefined ? {} : { endpoint }),
    url: endpoint ?? derived,
  }
}
