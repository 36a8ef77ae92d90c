/**
 * Deterministic, UUID-shaped ids for graph rows, derived from SHA-256 of their natural key, so
 * re-runs and incremental updates keep entity, relationship and claim ids stable.
 */
import { hash } from 'node:crypto'

/** The variant nibble (binary 10xx) for each value of the hash's 17th hex digit's two low bits. */
const VARIANT = '89ab'

/**
 * Formats the first 16 bytes of SHA-256(key) as an RFC 9562 version-8 (custom) UUID: the version
 * nibble set to 8, the variant's two top bits to 10. One-shot `hash` on the hex string: an update
 * makes ids for every entity and relationship of the graph, and a Hash object and Buffer per key cost
 * five times as much.
 */
function uuidFromKey(key: string): string {
  const hex = hash('sha256', key, 'hex')
  const variant = VARIANT[Number.parseInt(hex[16]!, 16) & 0x3]
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
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
