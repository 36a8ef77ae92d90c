/**
 * The collected model replies (test/fixtures/replies): every record a careful reader takes is read,
 * nothing else is, and unusable replies are called so. npm run bench:replies prints the figures.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readGraphReply } from '../../../src/index/operations/extract-graph/read-reply.js'
import { PROJECT_ROOT } from '../../support/shared.js'

interface Fixture {
  id: string
  input_text?: string
  reply: string
  expected: { entities: string[]; relationships: Array<[string, string, number?]>; unusable?: boolean }
}

const dir = join(PROJECT_ROOT, 'test/fixtures/replies')
const fixtures: Fixture[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture)
const template = readFileSync(join(PROJECT_ROOT, 'prompts/extract_graph.txt'), 'utf8')

describe('collected model replies', () => {
  it.each(fixtures.map((f) => [f.id, f] as const))('%s', (_id, f) => {
    const read = readGraphReply(f.reply, {
      template,
      ...(f.input_text === undefined ? {} : { inputText: f.input_text }),
    })
    expect(new Set(read.entities.map((e) => e.title))).toEqual(new Set(f.expected.entities))
    expect(read.relationships.map((r) => [r.source, r.target])).toEqual(
      f.expected.relationships.map(([s, t]) => [s, t]),
    )
    for (const [s, t, w] of f.expected.relationships) {
      if (w !== undefined) expect(read.relationships.find((r) => r.source === s && r.target === t)?.weight).toBe(w)
    }
    expect(read.unusable !== undefined).toBe(f.expected.unusable === true)
  })
})
