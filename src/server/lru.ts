/** The server's query caches: lru-cache's bounded least-recently-used map, counting its hits and misses for /cache/stats. */
import { LRUCache } from 'lru-cache'

export interface CacheStats {
  size: number
  capacity: number
  hits: number
  misses: number
  /** hits / (hits + misses); null before the first lookup. */
  hit_rate: number | null
}

export class LruCache<V extends NonNullable<unknown>> {
  /** Undefined when the capacity is 0 (no cache: lru-cache needs a positive max). */
  private readonly entries: LRUCache<string, V> | undefined
  private hits = 0
  private misses = 0

  constructor(readonly capacity: number) {
    this.entries = capacity > 0 ? new LRUCache<string, V>({ max: capacity }) : undefined
  }

  get(key: string): V | undefined {
    const value = this.entries?.get(key)
    if (value === undefined) this.misses += 1
    else this.hits += 1
    return value
  }

  set(key: string, value: V): void {
    this.entries?.set(key, value)
  }

  clear(): void {
    this.entries?.clear()
    this.hits = 0
    this.misses = 0
  }

  /** Up to `limit` keys, most recently used first. */
  keys(limit: number): string[] {
    const out: string[] = []
    for (const key of this.entries?.keys() ?? []) {
      if (out.length >= limit) break
      out.push(key)
    }
    return out
  }

  stats(): CacheStats {
    const lookups = this.hits + this.misses
    return {
      size: this.entries?.size ?? 0,
      capacity: this.capacity,
      hits: this.hits,
      misses: this.misses,
      hit_rate: lookups === 0 ? null : this.hits / lookups,
    }
  }
}
