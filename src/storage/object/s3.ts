/**
 * S3 and S3-compatible stores (MinIO, R2, Ceph, GCS interoperability) through `@aws-sdk/client-s3`.
 * Credentials come from the standard AWS chain (environment, shared profile, SSO, container or
 * instance role); `endpoint_url` points at a compatible server (path-style addressing then).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { NodeHttpHandler } from '@smithy/node-http-handler'
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
import { FailedTries, failureReason, storeTryTimeoutMs, TRANSIENT_STATUS } from './transient.js'

export interface S3Options {
  bucket: string
  region?: string | null
  endpointUrl?: string | null
}

const MAX_ATTEMPTS = 6

export class S3Store implements ObjectStore {
  readonly location: string
  private readonly client: S3Client

  constructor(private readonly options: S3Options) {
    // The SDK warns on every Node 20 run that its future releases will need Node 22; ours is pinned, so it is noise on stderr.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
    this.location = `s3://${options.bucket}`
    this.client = new S3Client({
      region: options.region || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
      ...(options.endpointUrl ? { endpoint: options.endpointUrl, forcePathStyle: true } : {}),
      // Standard retry mode: exponential backoff with jitter on 500/503/429, resets and timeouts.
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: new CountingHandler(this.location, storeTryTimeoutMs()),
    })
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }))
      const body = (await response.Body?.transformToByteArray()) ?? new Uint8Array()
      return { body, etag: response.ETag ?? '' }
    } catch (error) {
      if (
        error instanceof S3ServiceException &&
        (error.name === 'NoSuchKey' || (error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket'))
      )
        return undefined
      throw await this.failure(error, `read ${key}`)
    }
  }

  async put(key: string, body: Uint8Array | string, condition: PutCondition = {}): Promise<string> {
    try {
      const response = await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: toBytes(body),
          ...(condition.ifAbsent === true ? { IfNoneMatch: '*' } : {}),
          ...(condition.ifMatch !== undefined ? { IfMatch: condition.ifMatch } : {}),
        }),
      )
      return response.ETag ?? ''
    } catch (error) {
      // 412 Precondition Failed; 409 ConditionalRequestConflict when two conditional writes race.
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined
      if ((status === 412 || status === 409) && (condition.ifAbsent === true || condition.ifMatch !== undefined))
        throw new ConditionFailedError(this.location, key)
      throw await this.failure(error, `write ${key}`)
    }
  }

  async delete(key: string, ifMatch?: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          ...(ifMatch === undefined ? {} : { IfMatch: ifMatch }),
        }),
      )
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined
      if (status === 404) return
      if (status === 412 && ifMatch !== undefined) throw new ConditionFailedError(this.location, key)
      throw await this.failure(error, `delete ${key}`)
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const out: ListedObject[] = []
    let token: string | undefined
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }),
        )
        for (const item of page.Contents ?? [])
          if (item.Key !== undefined) out.push({ key: item.Key, size: item.Size ?? 0, etag: item.ETag ?? '' })
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (token !== undefined)
    } catch (error) {
      throw await this.failure(error, `list ${prefix || '/'}`)
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  /** "AKIA…WXYZ (from AWS_ACCESS_KEY_ID)", or where it came from when not the environment. */
  private async credentialInUse(): Promise<string> {
    let id: string
    try {
      id = (await this.client.config.credentials()).accessKeyId
    } catch (error) {
      return `(none resolved: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`
    }
    const source =
      id === process.env.AWS_ACCESS_KEY_ID
        ? 'AWS_ACCESS_KEY_ID'
        : process.env.AWS_PROFILE
          ? `profile ${process.env.AWS_PROFILE}`
          : 'the AWS credential chain: shared profile, SSO or role'
    return `${maskKeyId(id)} (from ${source})`
  }

  async check(setting: string): Promise<void> {
    try {
      // The listing first: its error carries S3's code (InvalidAccessKeyId, SignatureDoesNotMatch…); HEAD's has no body.
      await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: '.graphrag-access-check/' }),
      )
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }))
    } catch (error) {
      throw await this.failure(error, 'list', setting)
    }
  }

  /** One clear error for the usual mistakes (no bucket, refused or missing credentials), naming the setting. */
  private async failure(error: unknown, action: string, setting?: string): Promise<StorageError> {
    const where = setting === undefined ? this.location : `${setting} (${this.location})`
    if (error instanceof S3ServiceException) {
      const status = error.$metadata.httpStatusCode
      if (error.name === 'NoSuchBucket' || (status === 404 && action === 'list'))
        return new StorageError(`${where}: the bucket does not exist; create it or fix bucket`, { cause: error })
      if (
        status === 403 ||
        status === 401 ||
        /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken/.test(error.name)
      )
        return new StorageError(
          `${where}: access refused when trying to ${action}: ${refusal(error.name, await this.credentialInUse())}`,
          { cause: error },
        )
      return new StorageError(`${where}: cannot ${action}: ${error.name} (HTTP ${status ?? '?'})`, { cause: error })
    }
    const name = error instanceof Error ? error.name : ''
    if (name === 'TimeoutError')
      return new StorageError(
        `${where}: the store did not answer when trying to ${action} (${MAX_ATTEMPTS} tries, each given ${storeTryTimeoutMs() / 1000} s, GRAPHRAG_STORE_TIMEOUT_SECONDS); check that its endpoint is reachable from here`,
        { cause: error },
      )
    if (name === 'CredentialsProviderError')
      return new StorageError(
        `${where}: no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with a role`,
        { cause: error },
      )
    const message = error instanceof Error ? error.message : String(error)
    return new StorageError(`${where}: cannot ${action}: ${message.split('\n')[0]}`, { cause: error })
  }
}

/** Which credential a refusal is about, by S3's error code, naming the key id (never the secret) and its source. */
function refusal(code: string, key: string): string {
  if (code === 'InvalidAccessKeyId') return `the server does not know the access key ${key}`
  if (code === 'SignatureDoesNotMatch')
    return `the secret key does not belong to the access key ${key} (AWS_SECRET_ACCESS_KEY, or the profile's aws_secret_access_key)`
  if (code === 'ExpiredToken' || code === 'InvalidToken' || code === 'TokenRefreshRequired')
    return `the session token of ${key} has expired or is invalid (AWS_SESSION_TOKEN, or sign in again: aws sso login)`
  if (code === 'AccessDenied' || code === 'AllAccessDisabled')
    return `the access key ${key} may not read the bucket; grant it s3:ListBucket, s3:GetObject and s3:PutObject there`
  return `${code === 'Unknown' || code === '' ? 'refused' : code} with the access key ${key}; check it and its permissions on the bucket`
}

/** A key id shown in messages: its first and last four characters (it is not the secret, but need not be whole). */
function maskKeyId(id: string): string {
  return id.length <= 8 ? `${id.slice(0, 2)}…` : `${id.slice(0, 4)}…${id.slice(-4)}`
}

/**
 * The SDK's own HTTP handler with a timeout on every try (connecting, and the socket going quiet:
 * an unanswered request fails with TimeoutError, which the SDK's retry strategy resends), counting
 * each resend as it is sent: the retry strategy numbers the tries in the amz-sdk-request header.
 */
class CountingHandler extends NodeHttpHandler {
  private readonly failed = new FailedTries()

  constructor(
    private readonly location: string,
    tryTimeoutMs: number,
  ) {
    super({ connectionTimeout: tryTimeoutMs, socketTimeout: tryTimeoutMs })
  }

  override async handle(...args: Parameters<NodeHttpHandler['handle']>) {
    const [request] = args
    const id = String(request.headers['amz-sdk-invocation-id'] ?? '')
    const attempt = Number(/attempt=(\d+)/.exec(String(request.headers['amz-sdk-request'] ?? ''))?.[1] ?? 1)
    if (attempt > 1)
      countStorageRetry({
        store: this.location,
        request: `${request.method} ${request.path}`,
        reason: this.failed.take(id) ?? 'unknown',
        attempt,
      })
    try {
      const result = await super.handle(...args)
      if (TRANSIENT_STATUS.has(result.response.statusCode)) this.failed.failed(id, `HTTP ${result.response.statusCode}`)
      return result
    } catch (error) {
      this.failed.failed(
        id,
        error instanceof Error && error.name === 'TimeoutError' ? 'no answer' : failureReason(error),
      )
      throw error
    }
  }
}
