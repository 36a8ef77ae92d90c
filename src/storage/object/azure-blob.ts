/**
 * Azure Blob Storage through `@azure/storage-blob`: a connection string (account key or SAS, and
 * Azurite's development string), or `account_url` with the standard Azure credential chain
 * (DefaultAzureCredential: environment, workload identity, managed identity, Azure CLI).
 */
import { DefaultAzureCredential } from '@azure/identity'
import { toHttpHeadersLike } from '@azure/core-http-compat'
import {
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineRequest,
  type HttpClient,
  type PipelineRequest,
} from '@azure/core-rest-pipeline'
import {
  AnonymousCredential,
  BlobServiceClient,
  type ContainerClient,
  type HttpOperationResponse,
  type IHttpClient,
  newPipeline,
  RestError,
  StorageSharedKeyCredential,
  type WebResource,
} from '@azure/storage-blob'
import { StorageError } from '../../errors.js'
import {
  ConditionFailedError,
  countStorageRetry,
  type ListedObject,
  type ObjectStore,
  type PutCondition,
  type StoredObject,
  toBytes,
} from './object-store.js'
import {
  backoffMs,
  FailedTries,
  failureReason,
  storeTryTimeoutMs,
  TRANSIENT_STATUS,
  UPLOAD_BLOCK_BYTES,
} from './transient.js'
import { type AzureConnection, parseAzureConnectionString } from './azure-connection.js'

export interface AzureBlobOptions {
  connectionString?: string | null
  accountUrl?: string | null
  containerName: string
}

/** Attempts per request: the SDK's exponential retry covers 500/503, connection resets and unanswered tries. */
const MAX_TRIES = 6
/** The error code a try that went unanswered fails with: the SDK's retry policy resends on it. */
const TRY_TIMED_OUT = 'ETIMEDOUT'

export class AzureBlobStore implements ObjectStore {
  readonly location: string
  private readonly container: ContainerClient

  constructor(options: AzureBlobOptions) {
    this.location = `az://${options.containerName}`
    this.container = serviceClient(options, this.location).getContainerClient(options.containerName)
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const blob = this.container.getBlockBlobClient(key)
      const response = await blob.download()
      const body = await readAll(response.readableStreamBody)
      return { body, etag: response.etag ?? '' }
    } catch (error) {
      if (error instanceof RestError && error.statusCode === 404 && blobMissing(error)) return undefined
      throw this.failure(error, `read ${key}`)
    }
  }

  async put(key: string, body: Uint8Array | string, condition: PutCondition = {}): Promise<string> {
    const bytes = toBytes(body)
    try {
      const response = await this.container.getBlockBlobClient(key).uploadData(bytes, {
        maxSingleShotSize: UPLOAD_BLOCK_BYTES,
        blockSize: UPLOAD_BLOCK_BYTES,
        conditions: {
          ...(condition.ifAbsent === true ? { ifNoneMatch: '*' } : {}),
          ...(condition.ifMatch !== undefined ? { ifMatch: condition.ifMatch } : {}),
        },
      })
      return response.etag ?? ''
    } catch (error) {
      if (
        error instanceof RestError &&
        (error.statusCode === 412 || error.statusCode === 409) &&
        conditional(condition)
      )
        throw new ConditionFailedError(this.location, key)
      throw this.failure(error, `write ${key}`)
    }
  }

  async delete(key: string, ifMatch?: string): Promise<void> {
    try {
      await this.container
        .getBlockBlobClient(key)
        .deleteIfExists(ifMatch === undefined ? {} : { conditions: { ifMatch } })
    } catch (error) {
      if (error instanceof RestError && error.statusCode === 412) throw new ConditionFailedError(this.location, key)
      throw this.failure(error, `delete ${key}`)
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const out: ListedObject[] = []
    try {
      for await (const item of this.container.listBlobsFlat({ prefix }))
        out.push({ key: item.name, size: item.properties.contentLength ?? 0, etag: item.properties.etag ?? '' })
    } catch (error) {
      throw this.failure(error, `list ${prefix || '/'}`)
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  async check(setting: string): Promise<void> {
    try {
      const iterator = this.container.listBlobsFlat().byPage({ maxPageSize: 1 })
      await iterator.next()
    } catch (error) {
      throw this.failure(error, 'list', setting)
    }
  }

  /** One clear error for the usual mistakes (no container, refused credential), naming the setting. */
  private failure(error: unknown, action: string, setting?: string): StorageError {
    const where = setting === undefined ? this.location : `${setting} (${this.location})`
    if (error instanceof RestError) {
      const code = String(error.code ?? '')
      if (code === TRY_TIMED_OUT)
        return new StorageError(
          `${where}: the store did not answer when trying to ${action} (${MAX_TRIES} tries, each given ${storeTryTimeoutMs() / 1000} s, GRAPHRAG_STORE_TIMEOUT_SECONDS); check that its endpoint is reachable from here`,
          { cause: error },
        )
      if (code === 'ContainerNotFound')
        return new StorageError(`${where}: the container does not exist; create it or fix container_name`, {
          cause: error,
        })
      if (error.statusCode === 403 || code.startsWith('Authentication') || code.startsWith('Authorization'))
        return new StorageError(
          `${where}: access refused (${code || error.statusCode}) when trying to ${action}; check connection_string or the credential used with account_url and its role on the container`,
          { cause: error },
        )
      return new StorageError(`${where}: cannot ${action}: ${code || error.statusCode} ${firstLine(error.message)}`, {
        cause: error,
      })
    }
    const message = error instanceof Error ? error.message : String(error)
    return new StorageError(`${where}: cannot ${action}: ${firstLine(message)}`, { cause: error })
  }
}

function conditional(condition: PutCondition): boolean {
  return condition.ifAbsent === true || condition.ifMatch !== undefined
}

function blobMissing(error: RestError): boolean {
  return error.code === undefined || error.code === 'BlobNotFound' || error.code === 'ResourceNotFound'
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 200)
}

function serviceClient(options: AzureBlobOptions, location: string): BlobServiceClient {
  const pipelineOptions = {
    retryOptions: { maxTries: MAX_TRIES, retryDelayInMs: 200, maxRetryDelayInMs: 5_000 },
    httpClient: new MeteredHttpClient(location, storeTryTimeoutMs()),
  }
  if (options.connectionString) {
    const parsed = parseConnectionString(options.connectionString)
    const credential =
      parsed.sas === undefined
        ? new StorageSharedKeyCredential(parsed.accountName, parsed.accountKey)
        : new AnonymousCredential()
    const pipeline = newPipeline(credential, pipelineOptions)
    if (parsed.sas !== undefined) return new BlobServiceClient(`${parsed.url}?${parsed.sas}`, pipeline)
    return new BlobServiceClient(parsed.url, pipeline)
  }
  if (!options.accountUrl) throw new StorageError('blob storage needs connection_string or account_url')
  const pipeline = newPipeline(new DefaultAzureCredential(), pipelineOptions)
  return new BlobServiceClient(options.accountUrl, pipeline)
}

/** The account endpoint and key of a connection string (AccountKey or SharedAccessSignature, with or without BlobEndpoint). */
function parseConnectionString(text: string): AzureConnection {
  const parsed = parseAzureConnectionString(text)
  if (parsed.sas === undefined && (parsed.accountName === '' || parsed.accountKey === ''))
    throw new StorageError(
      'connection_string: expected AccountName and AccountKey (or BlobEndpoint and SharedAccessSignature)',
    )
  return parsed
}

/**
 * The HTTP client of the store's pipeline (`StoragePipelineOptions.httpClient`, the documented place
 * below the SDK's retry and signing policies), so it sees every try of every request: gives each try
 * its timeout (an unanswered try fails with ETIMEDOUT, which the retry policy resends), counts each
 * resend as it is sent, and retries 429 itself, which Azure's storage retry policy leaves alone.
 */
class MeteredHttpClient implements IHttpClient {
  private readonly failed = new FailedTries()
  private readonly tries = new Map<string, number>()
  private readonly http: HttpClient = createDefaultHttpClient()

  constructor(
    private readonly location: string,
    private readonly tryTimeoutMs: number,
  ) {}

  async sendRequest(request: WebResource): Promise<HttpOperationResponse> {
    const what = `${request.method} ${new URL(request.url).pathname}`
    for (let attempt = 0; ; attempt++) {
      const tries = this.nextTry(request.requestId)
      if (tries > 1)
        countStorageRetry({
          store: this.location,
          request: what,
          reason: this.failed.take(request.requestId) ?? 'unknown',
          attempt: tries,
        })
      const response = await this.tryOnce(request)
      if (!TRANSIENT_STATUS.has(response.status)) {
        this.tries.delete(request.requestId)
        return response
      }
      this.failed.failed(request.requestId, `HTTP ${response.status}`)
      if (response.status !== 429 || attempt >= MAX_TRIES - 1) return response
      await new Promise((r) => setTimeout(r, backoffMs(attempt)))
    }
  }

  /** Which try of the request this is (1 for the first), by its id, which its resends keep. */
  private nextTry(id: string): number {
    const tries = (this.tries.get(id) ?? 0) + 1
    this.tries.delete(id)
    this.tries.set(id, tries)
    if (this.tries.size > 1_000) this.tries.delete(this.tries.keys().next().value!)
    return tries
  }

  private async tryOnce(request: WebResource): Promise<HttpOperationResponse> {
    try {
      const response = await this.http.sendRequest(pipelineRequest(request, this.tryTimeoutMs))
      return { ...response, request, headers: toHttpHeadersLike(response.headers) }
    } catch (error) {
      // The HTTP client aborts a try that outlived its timeout; no caller of ours aborts requests.
      const timedOut = error instanceof Error && error.name === 'AbortError' && request.abortSignal?.aborted !== true
      const failure = timedOut
        ? new RestError(`no answer within ${this.tryTimeoutMs / 1000} s`, { code: TRY_TIMED_OUT })
        : error
      this.failed.failed(request.requestId, failureReason(failure))
      throw failure
    }
  }
}

/** One try of the SDK's request, with our timeout, for core-rest-pipeline's HTTP client. */
function pipelineRequest(request: WebResource, timeout: number): PipelineRequest {
  return createPipelineRequest({
    url: request.url,
    method: request.method,
    headers: createHttpHeaders(request.headers.toJson({ preserveCase: true })),
    body: request.body,
    timeout,
    requestId: request.requestId,
    abortSignal: request.abortSignal,
    streamResponseStatusCodes: request.streamResponseStatusCodes,
    onUploadProgress: request.onUploadProgress,
    onDownloadProgress: request.onDownloadProgress,
    proxySettings: request.proxySettings,
    agent: request.agent,
    // The storage SDK allows http:// endpoints (Azurite, local proxies) for every request it sends.
    allowInsecureConnection: true,
  })
}

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<Uint8Array> {
  if (stream === undefined) return new Uint8Array()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return new Uint8Array(Buffer.concat(chunks))
}
