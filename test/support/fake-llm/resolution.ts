/**
 * The fake model's answer to entity resolution's confirmation prompt, predictable by tests: two names
 * are one thing when they carry the same numbers and one is the other with letters left out
 * ("HARBOR" in "HARBOUR", "NELL" in "NELLIE"); a changed letter ("CARTER" / "CARVER") or another
 * number ("ROUTE 7" / "ROUTE 9") makes two things.
 */
import type { ChatMessageLike } from './classify.js'

const digits = (name: string) => (name.match(/\d+/g) ?? []).join(',')

function isSubsequence(short: string, long: string): boolean {
  let i = 0
  for (const c of long) if (c === short[i]) i++
  return i === short.length
}

function same(a: string, b: string): boolean {
  if (digits(a) !== digits(b)) return false
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return isSubsequence(short.toUpperCase(), long.toUpperCase())
}

export function resolutionReply(messages: readonly ChatMessageLike[]): string {
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''
  const decisions = [...user.matchAll(/^(\d+)\. "([^"]*)".*?\|\s+"([^"]*)"/gm)].map((m) => ({
    pair: Number(m[1]),
    same: same(m[2]!, m[3]!),
  }))
  return JSON.stringify({ decisions })
}
