/** Deterministic fake embeddings: a unit vector seeded by the SHA-256 of the text. */
import { createHash } from 'node:crypto'

/**
 * A unit-length vector that depends only on `text` and `dimension`. Its numbers are float32 values, as a
 * real provider's are, so a JSON float reply and a base64 (float32) reply carry the same vector.
 */
export function embeddingFor(text: string, dimension: number): number[] {
  const seed = createHash('sha256').update(text).digest()
  let state = seed.readUInt32LE(0) ^ seed.readUInt32LE(4)
  // mulberry32: small, fast and good enough for spreading vectors over the sphere.
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  // Plain loops over one array (the fake answers tens of thousands of these in bench:scale).
  const vector = new Array<number>(dimension)
  let squares = 0
  for (let i = 0; i < dimension; i++) {
    const v = next() * 2 - 1
    vector[i] = v
    squares += v * v
  }
  const norm = Math.sqrt(squares) || 1
  for (let i = 0; i < dimension; i++) vector[i] = Math.fround(vector[i]! / norm)
  return vector
}

/** The vector the fake server returns for `text` (tests compare against it). */
export function fakeEmbedding(text: string, dimension = 1536): number[] {
  return embeddingFor(text, dimension)
}

/** OpenAI's base64 encoding: little-endian float32. */
export function encodeBase64(vector: readonly number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64')
}
