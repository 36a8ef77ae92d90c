/**
 * JSON with object keys sorted (by UTF-16 code units) at every level, so equal values give equal text
 * whatever order their keys were set in: the material of cache keys and workflow fingerprints. Arrays
 * keep their order; `toJSON` (Dates) applies as in JSON.stringify; undefined properties are left out.
 * Written out rather than a JSON.stringify replacer: objects put integer-like keys ("22") first
 * whatever order they are inserted in, which would break the sort.
 */
export function canonicalJson(value: unknown): string {
  const plain = hasToJson(value) ? value.toJSON() : value
  if (Array.isArray(plain)) return `[${plain.map(canonicalJson).join(',')}]`
  if (typeof plain === 'object' && plain !== null) {
    const entries = Object.entries(plain as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && typeof v !== 'function')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(plain) ?? 'null'
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'
}
