/**
 * Object storage (Azure Blob, S3) behind one small interface: whole objects by key, listed by
 * prefix, with the conditional writes the generations, the lock and the shared cache rely on
 * (create-only, replace-if-unchanged). The backends are thin wrappers over the providers' SDKs.
 */
import { StorageError } from '../../errors.js'

export interface StoredObject {
  body: Uint8Array
  etag: string
}

export interface ListedObject {
  key: string
  size: number
  etag: string
}

export interface PutCondition {
  /** Write only when no object has the key (a create that cannot replace anything). */
  ifAbsent?: boolean
  /** Write only when the object still has this ETag (replace what was read, nothing newer). */
  ifMatch?: string
}

export interface ObjectStore {
  /** `az://container/prefix` or `s3://bucket/prefix` (never a secret), for messages. */
  readonly location: string
  get(key: string): Promise<StoredObject | undefined>
  /** Returns the new ETag; throws ConditionFailedError when the condition does not hold. */
  put(key: string, body: Uint8Array | string, condition?: PutCondition): Promise<string>
  /** Removes the object (absent is fine); with `ifMatch`, only while it still has that ETag. */
  delete(key: string, ifMatch?: string): Promise<void>
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<ListedObject[]>
  /** Checks that the container or bucket exists and the credential may read it; throws a StorageError naming `setting`. */
  check(setting: string): Promise<void>
}

/** A conditional write lost: another writer created or changed the object first. */
export class ConditionFailedError extends StorageError {
  constructor(location: string, key: string) {
    super(`${location}/${key} was changed by another writer`)
    this.name = 'ConditionFailedError'
  }
}

/**
 * Transient store failures (HTTP 500/503/429, resets, tries that went unanswered) that the SDKs
 * retried, counted per process when the resend is sent, so a run can report them (they cost time,
 * never data: a retried request is sent whole again) and log each one as it happens.
 */
const faults = { retried: 0 }

/** One resend of a store request: where, what, why the try before it failed, and which try this is. */
export interface StorageRetry {
  store: string
  request: string
  reason: string
  attempt: number
}

const retryListeners = new Set<(retry: StorageRetry) => void>()

export function countStorageRetry(retry: StorageRetry): void {
  faults.retried++
  for (const listener of retryListeners) listener(retry)
}

/** Calls `listener` for every store resend from now on (a run logs them); returns the unsubscribe. */
export function onStorageRetry(listener: (retry: StorageRetry) => void): () => void {
  retryListeners.add(listener)
  return () => retryListeners.delete(listener)
}

export function storageRetries(): number {
  return faults.retried
}

/** Joins key parts with single slashes, dropping empty parts (a base_dir of "" is the container root). */
export function joinKey(...parts: string[]): string {
  return parts
    .flatMap((p) => p.split('/'))
    .filter((p) => p !== '' && p !== '.')
    .join('/')
}

export function toBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body
}
