/**
 * Deterministic, UUID-shaped ids for graph rows, derived from SHA-256 of their natural key, so
 * re-runs and incremental updates keep entity, relationship and claim ids stable.
 */
import { createHash } from 'node:crypto'

/** Formats the first 16 bytes of SHA-256(key) as an RFC 9562 version-8 (custom) UUID. */
function uuidFromKey(key: string): string {
  const bytes = createHash('sha256').update(key, 'utf8').digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x80
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The id of the entity with this title. */
export function entityId(title: string): string {
  return uuidFromKey(title)
}

/** The id of the (directed) relationship source → target; cleaned titles never contain U+0000. */
export function relationshipId(source: string, target: string): string {
  return uuidFromKey(`${source}\u0000${target}`)
}

/** The id of the `index`-th claim extracted from a text unit. */
export function covariateId(textUnitId: string, index: number): string {
  return uuidFromKey(`claim\u0000${textUnitId}\u0000${index}`)
}

/** The id of the chunk edge source → target with this relation (text unit ids never contain U+0000). */
export function chunkEdgeId(source: string, target: string, relation: string): string {
  return uuidFromKey(`chunk_edge\u0000${source}\u0000${target}\u0000${relation}`)
}
