/**
 * Credentials written inside URLs (`https://user:password@host`, `?api-key=…`, `&sig=…`) replaced by
 * `***`, so a URL can be shown in diagnostics, errors and logs without leaking what it carries.
 */

// user:password@ (or a bare token@) between the scheme and the host.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi
// Query parameters that carry credentials (Azure SAS `sig`, `api-key`, `key`, `token`, …).
const SECRET_PARAMS =
  /([?&;](?:api[-_]?key|key|sig|signature|token|access[-_]?token|auth|password|pwd|secret|client[-_]?secret|code|x-amz-signature|x-goog-signature)=)[^&#\s"']*/gi

export function maskUrlSecrets(text: string): string {
  return text.replace(USERINFO, '$1***@').replace(SECRET_PARAMS, '$1***')
}

/** Every string inside a JSON-like value with its URL credentials masked. */
export function maskUrlSecretsDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskUrlSecrets(value)
  if (Array.isArray(value)) return value.map(maskUrlSecretsDeep)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskUrlSecretsDeep(v)]))
  return value
}
