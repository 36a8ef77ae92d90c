/** A bounded least-recently-used map that counts its hits and misses (the server's query caches). */

export interface CacheStats {
  size: number
  capacity: number
  hits: number
  misses: number
  /** hits / (hits + misses); null before the first lookup. */
  hit_rate: number | null
}

export class LruCache<V> {
  private readonly entries = new Map<string, V>()
  private hits = 0
  private misses = 0

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) {
      this.misses += 1
      return undefined
    }
    this.hits += 1
    // Map keeps insertion order: re-inserting makes this the most recent entry.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: string, value: V): void {
    if (this.capacity === 0) return
    this.entries.delete(key)
    this.entries.set(key, value)
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
  }

  clear(): void {
    this.entries.clear()
    this.hits = 0
    this.misses = 0
  }

  stats(): CacheStats {
    const lookups = this.hits + this.misses
    return {
      size: this.entries.size,
      capacity: this.capacity,
      hits: this.hits,
      misses: this.misses,
      hit_rate: lookups === 0 ? null : this.hits / lookups,
    }
  }
}
