import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formatPrompt, loadPrompt } from '../../src/prompts/prompt-template.js'
import { renderSources } from '../../src/index/operations/text-unit-report-context.js'
import { findingCount } from '../support/fake-llm/realistic.js'
import { countTokens } from '../support/fake-llm/tokens.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'

// The realistic replies' sizes against what ../shared's reference index measured (realistic.ts).
describeShared('fake model, realistic reply sizes', () => {
  let fake: FakeLlm
  let plain: FakeLlm
  const book = () => readFileSync(sharedPath('corpora', 'a-christmas-carol.txt'), 'utf8')
  beforeAll(async () => {
    fake = await startFakeLlm({ realistic: true })
    plain = await startFakeLlm()
  })
  afterAll(async () => {
    await fake.close()
    await plain.close()
  })
  const ask = async (server: FakeLlm, content: string) => {
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseUrl, maxRetries: 0 })
    const reply = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content }] })
    return reply.choices[0]!.message.content!
  }

  it('extraction: one entity per 65 input tokens and 1.4 relationships per entity, described from the text', async () => {
    // About 1,200 tokens from the middle of the book, where names are plenty.
    const text = book().slice(60_000, 65_000)
    const content = formatPrompt(loadPrompt(null, 'extract_graph.txt', 'test'), {
      entity_types: 'PERSON',
      input_text: text,
    })
    const reply = await ask(fake, content)
    const entities = reply.split('\n##\n').filter((r) => r.startsWith('("entity"'))
    const relationships = reply.split('\n##\n').filter((r) => r.startsWith('("relationship"'))
    const expected = Math.round(countTokens(text) / 65)
    const distinct = new Set([...text.matchAll(/\b[A-Z][a-z]{3,}\b/g)].map((m) => m[0].toUpperCase())).size
    // ± 1: the prompt's input section ends with a line or two of the template.
    expect(Math.abs(entities.length - Math.min(expected, distinct))).toBeLessThanOrEqual(1)
    expect(entities.length).toBeGreaterThan(10)
    expect(relationships.length).toBe(Math.round(entities.length * 1.4))
    expect(entities[0]!.split('<|>')[3]!.split(' ').length).toBeGreaterThan(4)
    // The same prompt gets the same reply; the built-in one stays short.
    expect(await ask(fake, content)).toBe(reply)
    expect((await ask(plain, content)).split('\n##\n').length).toBeLessThan(12)
  })

  it('names with a trailing number (as in the cost bench copies) are entities too', async () => {
    const text = 'Scrooge3 met Marley3 at the Counting3 house. Scrooge3 and Marley3 were partners for years. '.repeat(
      20,
    )
    const content = formatPrompt(loadPrompt(null, 'extract_graph.txt', 'test'), {
      entity_types: 'PERSON',
      input_text: text,
    })
    const titles = (await ask(fake, content))
      .split('\n##\n')
      .flatMap((r) => /^\("entity"<\|>([^<]+)</.exec(r)?.[1] ?? [])
    expect(titles).toEqual(['SCROOGE3', 'MARLEY3', 'COUNTING3'])
  })

  it('a text report has 5 findings plus one per doubling of its sources, ≈ 110 tokens each', async () => {
    const paragraphs = book()
      .split(/\n\s*\n/)
      .filter((p) => p.length > 300)
    const sized = async (n: number) => {
      const records = paragraphs.slice(0, n).map((t, i) => ({ unit: `u${i}`, id: i, text: t, entity_degree: n - i }))
      const content = formatPrompt(loadPrompt(null, 'community_report_text.txt', 'test'), {
        input_text: renderSources(records),
        max_report_length: '2000',
      })
      return JSON.parse(await ask(fake, content)) as { summary: string; findings: Array<{ explanation: string }> }
    }
    expect([1, 2, 4, 8, 16, 32, 64].map(findingCount)).toEqual([5, 6, 7, 8, 9, 10, 10])
    for (const n of [1, 6, 20]) {
      const report = await sized(n)
      expect(report.findings).toHaveLength(findingCount(n))
      const tokens = countTokens(JSON.stringify(report))
      // The reference's reports: 456–2,058 tokens, by size 650 (1–2 members) to 1,718 (more than 20).
      expect(tokens).toBeGreaterThan(500)
      expect(tokens).toBeLessThan(2100)
      for (const f of report.findings) expect(countTokens(f.explanation)).toBeGreaterThan(70)
      expect(report.findings[0]!.explanation).toMatch(/\[Data: Sources \(0(, \d+)*\)\]\.$/)
    }
  })
})
