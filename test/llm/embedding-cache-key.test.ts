// The embedding cache's keys are hashed from a head serialised once and each text, not from an object
// built and walked per text; they must stay the keys caches written before hold.
import { describe, expect, it } from 'vitest'
import { cacheKey, embeddingCache, embeddingKeyOf, type CacheIdentity } from '../../src/llm/cache.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'

const IDENTITIES: CacheIdentity[] = [
  { provider: 'openai', model: 'text-embedding-3-small', extra: {} },
  { provider: 'azure', model: 'emb', extra: { deployment: 'd1', apiVersion: '2024-02-01', dimensions: 256 } },
  { provider: 'openai', model: 'm', extra: { dimensions: undefined, zeta: [1, 'two'] } },
]
const TEXTS = ['', 'plain', 'quotes " and \\ backslash', 'new\nline\ttab', 'unicode é 漢字 🎄', '\u0000\u001f\u2028']

/** The key material as written out in full: what every earlier version hashed. */
const fullKey = (identity: CacheIdentity, text: string) =>
  cacheKey({
    kind: 'embedding',
    format: 2,
    provider: identity.provider,
    model: identity.model,
    extra: identity.extra,
    text,
  })

describe('embedding cache keys', () => {
  it('equal the canonical key of the whole material for every identity and text', () => {
    for (const identity of IDENTITIES) {
      const keyOf = embeddingKeyOf(identity)
      for (const text of TEXTS)
        expect(keyOf(text), `${identity.model} / ${JSON.stringify(text)}`).toBe(fullKey(identity, text))
    }
  })

  it('a vector saved under the whole material is found by the cache', async () => {
    const store = new MemoryKeyValueStore()
    const identity = IDENTITIES[1]!
    const cache = embeddingCache(store, identity)
    await cache.save(['a text'], [[0.5, -0.25]])
    expect(await store.keys()).toEqual([fullKey(identity, 'a text')])
    expect(await cache.lookup(['a text', 'another'])).toEqual([[0.5, -0.25], undefined])
  })
})
