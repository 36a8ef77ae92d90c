/** URLs as they may be shown: api_base values can carry credentials. */

/** A URL fit for messages, stats and diagnostics: no user:password, no query (keys travel there). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url)
    u.username = ''
    u.password = ''
    u.search = ''
    u.hash = ''
    return u.toString().replace(/\/$/, '')
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/\?.*$/, '')
  }
}

/** `text` with the credentials of every URL in it masked (user:password@, key/token query values). */
export function redactUrls(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@')
    .replace(/([?&](?:key|api[-_]?key|token|access[-_]?token|sig|signature|code)=)[^&\s#]+/gi, '$1***')
}
