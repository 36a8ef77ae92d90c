// Every relative link in README.md and docs/*.md points at a file that exists and, with #anchor, at a
// heading of that file (GitHub's anchor rules), so moving text between pages cannot leave dead links.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/shared.js'

const PAGES = [
  join(PROJECT_ROOT, 'README.md'),
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(PROJECT_ROOT, 'docs', f)),
]

/** Markdown without fenced code blocks and inline code, where `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return out
}

describe('documentation links', () => {
  it('has a docs page for each topic the README points to', () => {
    expect(PAGES.length).toBeGreaterThan(10)
  })

  it.each(PAGES.map((p) => [relative(PROJECT_ROOT, p), p]))('%s: every relative link resolves', (_, page) => {
    const broken: string[] = []
    for (const [, target] of prose(readFileSync(page, 'utf8')).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const file = path === '' ? page : resolve(dirname(page), path)
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(PROJECT_ROOT, file)}`)
        continue
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${relative(PROJECT_ROOT, file)}`)
    }
    expect(broken).toEqual([])
  })
})
