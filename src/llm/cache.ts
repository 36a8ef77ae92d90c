/**
 * The LLM answer cache under the workflow's cache partition: one JSON entry per chat request and one
 * per embedded text. The key is a SHA-256 of everything that changes the answer (provider kind, model,
 * deployment, dimensions, messages or text, response_format, call parameters), never of where the
 * server is (api_base: a new port or host serves the same model) nor the API key. Only successful,
 * validated replies are stored; an empty one found in an older cache is a miss.
 */
import { createHash } from 'node:crypto'
import type { KeyValueStore } from '../storage/key-value-store.js'
import type { ChatCall, ChatReply, ChatTransport } from './transport.js'
import { canonicalJson } from '../text/canonical-json.js'
import { floatsFromBytes } from './float-bytes.js'

/** What identifies the model behind a cache entry. */
export interface CacheIdentity {
  provider: string
  model: string
  /** Azure deployment, api version, requested embedding dimensions: whatever else selects the model. */
  extra: Readonly<Record<string, unknown>>
}

const VERSION = 1

export function cacheKey(material: unknown): string {
  return createHash('sha256').update(canonicalJson(material)).digest('hex')
}

/** Reads an entry; anything unreadable counts as a miss and is overwritten by the next answer. */
async function readEntry(store: KeyValueStore, key: string): Promise<Record<string, unknown> | undefined> {
  const text = await store.get(key)
  if (text === undefined) return undefined
  try {
    const entry = JSON.parse(text) as Record<string, unknown>
    return entry?.version === VERSION ? entry : undefined
  } catch {
    return undefined
  }
}

/** The identity as key material: format 2 keys leave out the api_base that format 1 included. */
function identityKey(identity: CacheIdentity): Record<string, unknown> {
  return { format: 2, provider: identity.provider, model: identity.model, extra: identity.extra }
}

export function cachedChat(inner: ChatTransport, store: KeyValueStore, identity: CacheIdentity): ChatTransport {
  const keyOf = (call: ChatCall) =>
    cacheKey({
      kind: 'chat',
      ...identityKey(identity),
      messages: call.messages,
      responseFormat: call.responseFormat ?? null,
      params: call.params,
    })
  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      if (call.noCache) return inner.complete(call)
      const key = keyOf(call)
      const entry = await readEntry(store, key)
      const hit = entry?.reply as ChatReply | undefined
      // Earlier versions stored empty replies of misbehaving servers; serving one would lose data again.
      if (
        typeof hit?.content === 'string' &&
        hit.content.trim() !== '' &&
        typeof hit.usage?.promptTokens === 'number' &&
        (call.responseFormat === undefined || 'json' in hit)
      ) {
        return { ...hit, cached: true, cacheKey: key }
      }
      const reply = await inner.complete(call)
      await store.set(
        key,
        JSON.stringify({ version: VERSION, reply: { content: reply.content, json: reply.json, usage: reply.usage } }),
      )
      return { ...reply, cacheKey: key }
    },
    // Streamed answers are not cached (as in the reference): the caller wants live output.
    stream: (call: ChatCall) => inner.stream(call),
  }
}

/**
 * Embedding vectors cached per text (per token window for long texts), so inserting or editing one
 * text re-sends only that text whatever batch it would have landed in.
 */
export interface EmbeddingCache {
  /** The cached vector of each text, undefined where there is none. */
  lookup(texts: readonly string[]): Promise<Array<number[] | undefined>>
  save(texts: readonly string[], vectors: readonly number[][]): Promise<void>
}

// Bounds the reads a store has in flight at once when a call brings thousands of texts.
const IO_CHUNK = 256

/**
 * A vector as the base64 of its float64 bytes: exact (the doubles the provider's JSON parsed to), a
 * fraction of the size of a JSON array of numbers and far cheaper to write and read than one.
 */
function encodeVector(vector: readonly number[]): string {
  return Buffer.from(Float64Array.from(vector).buffer).toString('base64')
}

/**
 * The cache entry of a vector: what JSON.stringify({ version, float64 }) writes, put together directly
 * (base64 has no character JSON escapes, so there is nothing to scan for in its ~16 kB).
 */
function vectorEntry(vector: readonly number[]): string {
  return `{"version":${VERSION},"float64":"${encodeVector(vector)}"}`
}

function decodeVector(text: string): number[] | undefined {
  const bytes = Buffer.from(text, 'base64')
  return bytes.length === 0 || bytes.length % 8 !== 0 ? undefined : floatsFromBytes(bytes, 8)
}

/** The entry's vector: `float64` (base64) as written now, or the JSON array `vector` of earlier versions. */
function vectorOf(entry: Record<string, unknown> | undefined): number[] | undefined {
  if (typeof entry?.float64 === 'string') return decodeVector(entry.float64)
  const vector = entry?.vector
  return Array.isArray(vector) && vector.length > 0 && vector.every((x) => typeof x === 'number')
    ? (vector as number[])
    : undefined
}

/**
 * cacheKey({ kind: 'embedding', ...identity, text }) without building and walking that object per text:
 * `text` sorts after every other key, so the canonical JSON is a fixed head, the text, and `}`. The head
 * is serialised once; each text is hashed straight after it (tens of thousands of texts at 10 M tokens).
 */
export function embeddingKeyOf(identity: CacheIdentity): (text: string) => string {
  // test/llm/embedding-cache-key.test.ts holds this equal to cacheKey (a key sorting after `text` would break it).
  const head = `${canonicalJson({ kind: 'embedding', ...identityKey(identity) }).slice(0, -1)},"text":`
  return (text) => createHash('sha256').update(head).update(JSON.stringify(text)).update('}').digest('hex')
}

export function embeddingCache(store: KeyValueStore, identity: CacheIdentity): EmbeddingCache {
  const keyOf = embeddingKeyOf(identity)
  const readVector = async (text: string): Promise<number[] | undefined> =>
    vectorOf(await readEntry(store, keyOf(text)))
  return {
    async lookup(texts) {
      const out: Array<number[] | undefined> = []
      for (let start = 0; start < texts.length; start += IO_CHUNK)
        out.push(...(await Promise.all(texts.slice(start, start + IO_CHUNK).map(readVector))))
      return out
    },
    async save(texts, vectors) {
      for (let start = 0; start < texts.length; start += IO_CHUNK) {
        const chunk = texts.slice(start, start + IO_CHUNK)
        await Promise.all(chunk.map((text, i) => store.set(keyOf(text), vectorEntry(vectors[start + i]!))))
      }
    },
  }
}
