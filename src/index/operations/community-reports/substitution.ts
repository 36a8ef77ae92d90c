/**
 * The context actually sent for one community. Within budget it is the community's own context.
 * Over budget, a parent stands its sub-communities' already generated reports (largest first) in
 * for their members: each substituted report removes its members' rows (relationships between two
 * covered members go with them), until Reports + the remaining own context fit. Otherwise as many
 * reports as fit are kept (at least one) and the rows of the members they leave uncovered fill the
 * rest of the budget, best ranked first. Without sub-community reports the own context is trimmed.
 */
import type { LocalContext } from './context.js'
import { renderIfFits, renderTrimmed, tryRender, type CountTokens, type RenderedContext } from './context-render.js'
import { type ContextRow, type ContextSection, renderContextSection, renderRow } from './context-rows.js'
import { sectionHead } from './csv.js'

/** A direct sub-community: its size, its members and, when generated, its report. */
export interface SubCommunity {
  community: number
  size: number
  members: ReadonlySet<string>
  fullContent: string | undefined
}

export interface CommunityContext extends RenderedContext {
  /** The sub-communities whose reports stand in the context (largest first). */
  substituted: number[]
}

const REPORTS = { label: 'Reports', columns: ['community', 'full_content'] } as const
const reportRow = (s: SubCommunity): ContextRow => ({
  table: 'Reports',
  id: s.community,
  identity: '',
  fields: [s.fullContent ?? ''],
})

function reportsSection(subs: readonly SubCommunity[]): ContextSection {
  return { ...REPORTS, rows: subs.map(reportRow) }
}

/**
 * The token count of a Reports section from its lines' counts: each row begins with its community
 * number and ends with `\n`, and the tokenizer's pre-split ends a piece at a line end before a digit,
 * so no token spans two lines and the sum is the section's count. Each report is counted once,
 * however many of the lists tried it is part of (counting each list whole made a hub's parent
 * tokenise its reports over and over).
 */
export function reportsTokens(countTokens: CountTokens): (subs: readonly SubCommunity[]) => number {
  const rows = new Map<SubCommunity, number>()
  const head = countTokens(sectionHead(REPORTS.label, REPORTS.columns))
  return (subs) => {
    let tokens = head
    for (const s of subs) {
      let row = rows.get(s)
      if (row === undefined) rows.set(s, (row = countTokens(renderRow(reportRow(s)))))
      tokens += row
    }
    return tokens
  }
}

export function buildCommunityContext(
  local: LocalContext,
  subCommunities: readonly SubCommunity[],
  budget: number,
  countTokens: CountTokens,
): CommunityContext {
  const own = renderIfFits(local, budget, countTokens)
  if (own !== undefined) return { ...own, substituted: [] }
  const reported = subCommunities
    .filter((s) => s.fullContent !== undefined)
    .sort((a, b) => b.size - a.size || a.community - b.community)
  if (reported.length === 0) return { ...renderTrimmed(local, budget, countTokens), substituted: [] }

  const covered = new Set<string>()
  const tokensOf = reportsTokens(countTokens)
  for (let i = 1; i <= reported.length; i++) {
    reported[i - 1]!.members.forEach((t) => covered.add(t))
    const members = new Set([...local.members.keys()].filter((t) => !covered.has(t)))
    const head = reportsSection(reported.slice(0, i))
    const attempt = tryRender(local, budget, countTokens, { members, head, headTokens: tokensOf(reported.slice(0, i)) })
    if (attempt.context !== undefined)
      return { ...attempt.context, substituted: reported.slice(0, i).map((s) => s.community) }
    // The reports alone are past the budget: longer lists of them cannot fit (and each costs a count of all of them).
    if (attempt.overMargin) break
  }
  return reportsAndRemainder(local, reported, budget, countTokens)
}

/**
 * Nothing fit whole: keep the longest prefix of reports whose section fits (at least one), and fill
 * what budget is left with the ranked rows of the members those reports do not cover.
 */
function reportsAndRemainder(
  local: LocalContext,
  reported: readonly SubCommunity[],
  budget: number,
  countTokens: CountTokens,
): CommunityContext {
  const kept = reportsThatFit(reported, budget, countTokens)
  const covered = new Set(reported.slice(0, kept).flatMap((s) => [...s.members]))
  const members = new Set([...local.members.keys()].filter((t) => !covered.has(t)))
  const head = reportsSection(reported.slice(0, kept))
  const headTokens = reportsTokens(countTokens)(reported.slice(0, kept))
  const trimmed = renderTrimmed(local, budget, countTokens, { members, head, headTokens, allowEmpty: true })
  return { ...trimmed, substituted: reported.slice(0, kept).map((s) => s.community) }
}

/**
 * The longest list of reports (largest first) whose section fits the budget, at least one. A longer
 * list's section is a shorter one's with rows appended, so its count is never smaller: bisection
 * finds the list the one-more-at-a-time scan finds, counting a few lists instead of each one.
 */
function reportsThatFit(reported: readonly SubCommunity[], budget: number, countTokens: CountTokens): number {
  let fits = 1
  let over = reported.length + 1
  while (over - fits > 1) {
    const mid = (fits + over) >> 1
    if (countTokens(renderContextSection(reportsSection(reported.slice(0, mid)))) <= budget) fits = mid
    else over = mid
  }
  return fits
}
