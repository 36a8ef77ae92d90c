// An offline query (no chat model) leads with a short extractive answer, the sentences of the
// ranked sources that best match the question with their sources, then the context under a heading.
import { describe, expect, it } from 'vitest'
import { answerFromContext } from '../../src/query/search/offline.js'

const PROMPT = {
  path: null,
  builtin: 'local_search_system_prompt.txt',
  key: 'local_search.prompt',
  modelKey: 'local_search.completion_model_id',
}

async function offline(question: string, sources: Array<{ id: number; text: string }>): Promise<string> {
  const records = { entities: [{ id: 3, entity: 'KITTIWAKE', description: 'a ferry' }], sources }
  const input = { query: question, responseType: 'Multiple Paragraphs', history: [], historyMaxTurns: 5 }
  let out = ''
  const run = answerFromContext({ records, text: '' }, PROMPT, input, undefined)
  for (let next = await run.next(); !next.done; next = await run.next()) out += next.value
  return out
}

describe('offline answer', () => {
  it('leads with the best-matching sentences and their sources, then the context under its own heading', async () => {
    const out = await offline('Who repaired the ferry Kittiwake after the storm?', [
      { id: 7, text: 'The harbour was quiet in June. Nobody fished that week because of the fog over the bay.' },
      {
        id: 2,
        text: 'The storm broke the Kittiwake’s engine mount. Amos Thorne repaired the ferry Kittiwake in three days after the storm.',
      },
    ])
    const lines = out.split('\n')
    expect(lines[0]).toContain('passages that best match the question, then the ranked context')
    expect(out.indexOf('# Best passages')).toBeLessThan(out.indexOf('# Context'))
    expect(out.indexOf('# Context')).toBeLessThan(out.indexOf('## Entities'))
    // One sentence per source, the best of it; a source with no word of the question gives none.
    expect(out).toContain(
      '# Best passages\n\n1. "Amos Thorne repaired the ferry Kittiwake in three days after the storm." (Source 2)\n\n# Context',
    )
    expect(out.indexOf('## Sources')).toBeGreaterThan(out.indexOf('# Context'))
  })

  it('shows no passages when no sentence shares a word with the question', async () => {
    const out = await offline('Zebra?', [{ id: 1, text: 'The harbour was quiet in June, and nobody fished.' }])
    expect(out).not.toContain('# Best passages')
    expect(out).toContain('so here is the ranked context an answer would be based on')
    expect(out).toContain('# Context')
  })
})
