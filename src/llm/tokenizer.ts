/**
 * The tiktoken encodings, token-exact with Python tiktoken, created once per encoding and shared.
 * The encoder is our byte-level BPE over tiktoken's rank data (src/llm/bpe), which starts in a few
 * milliseconds from the table `npm run build` writes, where tiktoken's wasm takes ~0.35 s per
 * encoding (docs/performance.md). Decoding keeps U+FEFF and replaces split multi-byte sequences with
 * U+FFFD, as Python does.
 */
import { ConfigError } from '../errors.js'
import { BytePairEncoder } from './bpe/encoder.js'
import { loadRankTable } from './bpe/rank-table.js'
import { TIKTOKEN_ENCODINGS } from './encodings.js'

export interface Tokenizer {
  readonly encoding: string
  encode(text: string): Uint32Array
  decode(tokens: ArrayLike<number>): string
  count(text: string): number
  /** One token's UTF-8 bytes (read-only: a view into the encoding's table). */
  tokenBytes(token: number): Uint8Array
}

const cache = new Map<string, Tokenizer>()
const decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: false })

/** Whether `name` is a tiktoken encoding this layer can load (for validating `encoding_model` settings). */
function isKnownEncoding(name: string): boolean {
  return (TIKTOKEN_ENCODINGS as readonly string[]).includes(name)
}

export function getTokenizer(encoding: string): Tokenizer {
  let tokenizer = cache.get(encoding)
  if (tokenizer === undefined) {
    if (!isKnownEncoding(encoding)) {
      throw new ConfigError(
        `unknown tiktoken encoding "${encoding}" (expected one of ${TIKTOKEN_ENCODINGS.join(', ')})`,
      )
    }
    tokenizer = wrap(encoding, new BytePairEncoder(loadRankTable(encoding)))
    cache.set(encoding, tokenizer)
  }
  return tokenizer
}

function wrap(encoding: string, enc: BytePairEncoder): Tokenizer {
  // Special-token text such as "<|endoftext|>" in a document is ordinary text, never a control token.
  return {
    encoding,
    encode: (text) => Uint32Array.from(enc.encode(text)),
    decode: (tokens) => decoder.decode(enc.decodeBytes(tokens)),
    count: (text) => (text === '' ? 0 : enc.encode(text).length),
    tokenBytes: (token) => enc.tokenBytes(token),
  }
}

/**
 * The encoding for a model name: o200k for the gpt-4o / gpt-4.1 / gpt-5 / o-series families, cl100k
 * otherwise (what LiteLLM falls back to for OpenAI models); `override` wins when set.
 */
export function encodingForModel(model: string, override?: string | null): string {
  if (override) return override
  const name = model.toLowerCase().split('/').pop() ?? ''
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/.test(name)) return 'o200k_base'
  return 'cl100k_base'
}
