/**
 * The LLM answer cache: one JSON entry per request under the workflow's cache partition. The key is
 * a SHA-256 of everything that changes the answer (provider, model, api_base, messages,
 * response_format, call parameters, never the API key). Only successful, validated replies are stored.
 */
import { createHash } from 'node:crypto'
import type { KeyValueStore } from '../storage/key-value-store.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'

/** What identifies the model behind a cache entry. */
export interface CacheIdentity {
  provider: string
  model: string
  apiBase: string | undefined
  /** Azure deployment, api version, requested embedding dimensions: whatever else selects the model. */
  extra: Readonly<Record<string, unknown>>
}

const VERSION = 1

/** JSON with object keys sorted at every level, so equal requests give equal keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

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

export function cachedChat(inner: ChatTransport, store: KeyValueStore, identity: CacheIdentity): ChatTransport {
  const keyOf = (call: ChatCall) =>
    cacheKey({ kind: 'chat', ...identity, messages: call.messages, responseFormat: call.responseFormat ?? null, params: call.params })
  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      if (call.noCache) return inner.complete(call)
      const key = keyOf(call)
      const entry = await readEntry(store, key)
      const hit = entry?.reply as ChatReply | undefined
      if (typeof hit?.content === 'string' && typeof hit.usage?.promptTokens === 'number' && (call.responseFormat === undefined || 'json' in hit)) {
        return { ...hit, cached: true }
      }
      const reply = await inner.complete(call)
      await store.set(key, JSON.stringify({ version: VERSION, reply: { content: reply.content, json: reply.json, usage: reply.usage } }))
      return reply
    },
    // Streamed answers are not cached (as in the reference): the caller wants live output.
    stream: (call: ChatCall) => inner.stream(call),
  }
}

export function cachedEmbed(inner: EmbedTransport, store: KeyValueStore, identity: CacheIdentity): EmbedTransport {
  return {
    async embed(call: EmbedCall): Promise<EmbedReply> {
      if (call.noCache) return inner.embed(call)
      const key = cacheKey({ kind: 'embedding', ...identity, input: call.input })
      const entry = await readEntry(store, key)
      const vectors = entry?.vectors
      if (Array.isArray(vectors) && vectors.length === call.input.length && vectors.every((v) => Array.isArray(v) && v.length > 0)) {
        return { vectors: vectors as number[][], promptTokens: Number(entry?.promptTokens ?? 0), cached: true }
      }
      const reply = await inner.embed(call)
      await store.set(key, JSON.stringify({ version: VERSION, vectors: reply.vectors, promptTokens: reply.promptTokens }))
      return reply
    },
  }
}
