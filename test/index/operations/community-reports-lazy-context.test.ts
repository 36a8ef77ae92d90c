// A hub entity's community has thousands of ranked rows while the budget holds a few dozen: contexts
// are cut without rendering and counting the rows past the budget (at 10 M tokens of a corpus with
// recurring names, rendering every row of every attempt was most of create_community_reports).
import { describe, expect, it } from 'vitest'
import type { LocalContext } from '../../../src/index/operations/community-reports/context.js'
import { renderIfFits, renderTrimmed } from '../../../src/index/operations/community-reports/context-render.js'
import {
  buildCommunityContext,
  type SubCommunity,
} from '../../../src/index/operations/community-reports/substitution.js'
import { getTokenizer } from '../../../src/llm/tokenizer.js'

const SPOKES = 3000
const BUDGET = 400

/** HUB related to SPOKES entities, ranked by combined degree (the first spoke first). */
function hubContext(): LocalContext {
  const members = new Map([['HUB', { human_readable_id: 0, title: 'HUB', description: 'the hub', degree: SPOKES }]])
  const edges = []
  for (let i = 1; i <= SPOKES; i++) {
    const title = `SPOKE ${i}`
    members.set(title, { human_readable_id: i, title, description: `spoke number ${i}`, degree: 1 })
    edges.push({
      human_readable_id: i,
      source: 'HUB',
      target: title,
      description: `HUB meets ${title}`,
      combined_degree: SPOKES + 1 - i / SPOKES,
    })
  }
  return { community: 1, level: 0, members, edges, claims: new Map() }
}

/** The tokenizer's count, recording every text it was asked about. */
function countingTokens() {
  const tokenizer = getTokenizer('o200k_base')
  const asked: string[] = []
  return {
    asked,
    count: (text: string) => {
      asked.push(text)
      return tokenizer.count(text)
    },
  }
}

describe('community contexts of a hub', () => {
  it('renderTrimmed counts only the rows up to the budget and keeps the best ranked ones', () => {
    const { asked, count } = countingTokens()
    const trimmed = renderTrimmed(hubContext(), BUDGET, count)
    expect(trimmed.tokens).toBeLessThanOrEqual(BUDGET)
    expect(trimmed.text).toContain('HUB meets SPOKE 1,')
    expect(trimmed.text).not.toContain(`SPOKE ${SPOKES},`)
    // Each row costs at least 5 tokens, so under 100 rows fit; every one of 3,000 would be counted otherwise.
    expect(asked.length).toBeLessThan(200)
    // The row after the cut does not fit: the prefix is the longest one.
    const rows = trimmed.sections.find((s) => s.label === 'Relationships')!.rows.length
    expect(trimmed.text).not.toContain(`HUB meets SPOKE ${rows + 1},`)
  })

  it('renderTrimmed counts a rendering past the cut only when its estimate is within the margin of the budget', () => {
    const { asked, count } = countingTokens()
    const budgets = Array.from({ length: 40 }, (_, i) => 300 + 7 * i)
    for (const budget of budgets) {
      expect(renderTrimmed(hubContext(), budget, count).tokens).toBeLessThanOrEqual(budget)
    }
    // Whole renderings (many lines) counted exactly: the cut's own, and the next one's only near the margin.
    const renderings = asked.filter((t) => t.split('\n').length > 5).length
    expect(renderings).toBeLessThan(1.5 * budgets.length)
  })

  it('renderIfFits gives up on an over-budget context once its rows pass the budget', () => {
    const { asked, count } = countingTokens()
    expect(renderIfFits(hubContext(), BUDGET, count)).toBeUndefined()
    expect(asked.length).toBeLessThan(200)
  })

  it('substituting sub-community reports one by one does not render the hub again and again', () => {
    const local = hubContext()
    // 40 small sub-communities of spokes, none covering the hub: every attempt stays over budget.
    const subs: SubCommunity[] = Array.from({ length: 40 }, (_, i) => ({
      community: 100 + i,
      size: 2,
      members: new Set([`SPOKE ${2 * i + 1}`, `SPOKE ${2 * i + 2}`]),
      fullContent: `# Report ${i}\n\nabout two spokes`,
    }))
    const { asked, count } = countingTokens()
    const context = buildCommunityContext(local, subs, BUDGET, count)
    expect(context.tokens).toBeLessThanOrEqual(BUDGET)
    expect(context.substituted.length).toBeGreaterThan(0)
    // 41 attempts of ~100 rows each, counted once per distinct row: far below the 3,000 rows of the hub.
    expect(new Set(asked).size).toBeLessThan(600)
  })

  it('stops substituting once the sub-community reports alone are past the budget', () => {
    // 60 reported sub-communities of ~300 tokens each, budget 2,000: from the 7th report on, no list fits.
    const subs: SubCommunity[] = Array.from({ length: 60 }, (_, i) => ({
      community: 200 + i,
      size: 2,
      members: new Set([`SPOKE ${2 * i + 1}`, `SPOKE ${2 * i + 2}`]),
      fullContent: `# Report ${i}\n\n${'a finding about two spokes '.repeat(60)}`,
    }))
    let chars = 0
    const tokenizer = getTokenizer('o200k_base')
    const context = buildCommunityContext(hubContext(), subs, 2000, (text) => {
      chars += text.length
      return tokenizer.count(text)
    })
    expect(context.tokens).toBeLessThanOrEqual(2000)
    expect(context.substituted.length).toBeGreaterThan(0)
    // Trying every list of 1..60 reports would tokenise ~3 M characters of reports.
    expect(chars).toBeLessThan(400_000)
  })
})
