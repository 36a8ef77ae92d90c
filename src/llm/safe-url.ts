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
