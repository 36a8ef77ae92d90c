/**
 * An object store whose cloud SDK is imported on its first request. The Azure and AWS SDKs take about a
 * quarter of a query's start-up CPU, and config loading names every remote location, so building the
 * client eagerly would make every command pay for SDKs that a local project never uses.
 */
import type { ListedObject, ObjectStore, PutCondition, StoredObject } from './object-store.js'

export class LazyObjectStore implements ObjectStore {
  private loading: Promise<ObjectStore> | undefined

  constructor(
    readonly location: string,
    private readonly open: () => Promise<ObjectStore>,
  ) {}

  private client(): Promise<ObjectStore> {
    this.loading ??= this.open()
    return this.loading
  }

  async get(key: string): Promise<StoredObject | undefined> {
    return (await this.client()).get(key)
  }

  async put(key: string, body: Uint8Array | string, condition?: PutCondition): Promise<string> {
    return (await this.client()).put(key, body, condition)
  }

  async delete(key: string, ifMatch?: string): Promise<void> {
    return (await this.client()).delete(key, ifMatch)
  }

  async list(prefix: string): Promise<ListedObject[]> {
    return (await this.client()).list(prefix)
  }

  async check(setting: string): Promise<void> {
    return (await this.client()).check(setting)
  }
}
