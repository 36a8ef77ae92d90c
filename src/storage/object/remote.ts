/**
 * A storage setting of type blob or s3 seen from the rest of graphrag. Every command works on a
 * local mirror folder (`<root>/.graphrag/remote/<setting>-<hash>`) that stands in for the
 * setting's base_dir; this registry maps each mirror back to the container or bucket and key
 * prefix it mirrors, so the index, query, export and serve code keep reading and writing plain
 * folders while generations, the lock, input and logs are synchronised with the store here.
 */
import { createHash } from 'node:crypto'
import { basename, dirname, join, sep } from 'node:path'
import { parseAzureConnectionString } from './azure-connection.js'
import { LazyObjectStore } from './lazy-store.js'
import { joinKey, type ObjectStore } from './object-store.js'

/** The keys of a storage section (input_storage, output_storage, cache.storage, reporting, ...). */
export interface StorageSettings {
  readonly type: string
  readonly base_dir: string
  readonly connection_string: string | null
  readonly container_name: string | null
  readonly account_url: string | null
  readonly bucket: string | null
  readonly region: string | null
  readonly endpoint_url: string | null
}

export interface RemoteLocation {
  /** The settings key, for messages (`output_storage`). */
  readonly setting: string
  /** `az://container/prefix` or `s3://bucket/prefix`: no secret. */
  readonly url: string
  /** Key prefix inside the container or bucket ('' = its root). */
  readonly prefix: string
  readonly spec: StorageSettings
  store(): ObjectStore
}

export function isRemoteStorage(settings: { type: string }): boolean {
  return settings.type === 'blob' || settings.type === 's3'
}

const stores = new Map<string, ObjectStore>()

export function remoteLocation(setting: string, spec: StorageSettings): RemoteLocation {
  const prefix = joinKey(spec.base_dir)
  const container = spec.type === 'blob' ? (spec.container_name ?? '') : (spec.bucket ?? '')
  const url = `${spec.type === 'blob' ? 'az' : 's3'}://${container}${prefix === '' ? '' : `/${prefix}`}`
  return {
    setting,
    url,
    prefix,
    spec,
    store() {
      // One client per account and container: their connection pools and credential caches are shared.
      const id = JSON.stringify([
        spec.type,
        container,
        spec.connection_string,
        spec.account_url,
        spec.region,
        spec.endpoint_url,
      ])
      let store = stores.get(id)
      if (store === undefined) {
        store =
          spec.type === 'blob'
            ? new LazyObjectStore(`az://${container}`, async () => {
                const { AzureBlobStore } = await import('./azure-blob.js')
                return new AzureBlobStore({
                  connectionString: spec.connection_string,
                  accountUrl: spec.account_url,
                  containerName: container,
                })
              })
            : new LazyObjectStore(`s3://${container}`, async () => {
                const { S3Store } = await import('./s3.js')
                return new S3Store({ bucket: container, region: spec.region, endpointUrl: spec.endpoint_url })
              })
        stores.set(id, store)
      }
      return store
    },
  }
}

/** The local folder standing in for a remote setting; one per setting and location, so switching stores never mixes mirrors. */
export function mirrorDir(root: string, setting: string, location: RemoteLocation): string {
  const hash = createHash('sha256').update(location.url).digest('hex').slice(0, 10)
  return join(root, '.graphrag', 'remote', `${setting.replace(/\./g, '-')}-${hash}`)
}

const registry = new Map<string, RemoteLocation>()

/** Records that `dir` mirrors `location` (config loading does this for every blob and s3 setting). */
export function registerRemote(dir: string, location: RemoteLocation): void {
  registry.set(dir, location)
}

/** The remote location a mirror folder stands for, or undefined for a plain local folder. */
export function remoteAt(dir: string): RemoteLocation | undefined {
  return registry.get(dir)
}

/**
 * A local path as the user knows it: inside an object-storage setting's mirror folder, its
 * `az://…` / `s3://…` location (a pulled generation as `<base>/.generations/<id>`, the work
 * folder as `<base>/.generations/.work`); any other path as it is. Messages, logs and reports use
 * this, so they never show the mirror (an implementation detail) and never a secret.
 */
export function remoteName(path: string): string {
  for (const [mirror, loc] of registry) {
    const runDir = join(dirname(mirror), `.${basename(mirror)}.run`)
    const places: [string, string][] = [
      [mirror, loc.url],
      [`${mirror}.pulled`, `${loc.url}/.generations`],
      [join(runDir, 'work'), `${loc.url}/.generations/.work`],
    ]
    for (const [local, remote] of places) {
      if (path === local) return remote
      if (path.startsWith(`${local}${sep}`))
        return `${remote}/${path
          .slice(local.length + 1)
          .split(sep)
          .join('/')}`
    }
  }
  return path
}

/**
 * LanceDB's own object-store options for an az:// or s3:// db_uri, from output_storage's keys,
 * so the credentials are configured once. LanceDB reads AWS_* and AZURE_* variables itself too.
 */
export function lanceStorageOptions(spec: StorageSettings): Record<string, string> {
  if (spec.type === 's3') {
    const options: Record<string, string> = {}
    if (spec.region) options.aws_region = spec.region
    if (spec.endpoint_url) {
      options.aws_endpoint = spec.endpoint_url
      options.aws_virtual_hosted_style_request = 'false'
      if (spec.endpoint_url.startsWith('http://')) options.allow_http = 'true'
    }
    return options
  }
  if (spec.connection_string) {
    const parsed = parseAzureConnectionString(spec.connection_string)
    const options: Record<string, string> = {}
    const set = (key: string, value: string | undefined): void => {
      if (value) options[key] = value
    }
    set('azure_storage_account_name', parsed.accountName)
    set('azure_storage_account_key', parsed.accountKey)
    set('azure_storage_sas_key', parsed.sas)
    if (parsed.endpoint !== undefined) {
      options.azure_storage_endpoint = parsed.endpoint
      if (parsed.endpoint.startsWith('http://')) options.allow_http = 'true'
    }
    return options
  }
  const account = /^https?:\/\/([^.]+)\./.exec(spec.account_url ?? '')?.[1]
  return account === undefined ? {} : { azure_storage_account_name: account }
}

const lanceOptions = new Map<string, Record<string, string>>()

export function registerLanceOptions(uri: string, options: Record<string, string>): void {
  lanceOptions.set(uri, options)
}

/** The options registered for `uri` (or for a db_uri it lies inside), undefined for a local folder. */
export function lanceOptionsFor(uri: string): Record<string, string> | undefined {
  for (const [base, options] of lanceOptions) if (uri === base || uri.startsWith(`${base}/`)) return options
  return undefined
}
