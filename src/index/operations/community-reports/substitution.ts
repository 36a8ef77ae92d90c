/**
 * The context actually sent for one community. Within budget it is the community's own context.
 * Over budget, a parent stands its sub-communities' already generated reports (largest first) in
 * for their members: each substituted report removes its members' rows (relationships between two
 * covered members go with them), until Reports + the remaining own context fit. If even all reports
 * plus the remainder do not fit, the remainder is trimmed; if the reports alone are too long, as
 * many reports as fit are kept. Without sub-community reports the own context is trimmed.
 */
import { joinParts, renderFull, renderTrimmed, type CountTokens, type LocalContext } from './context.js'
import { renderSection } from './csv.js'

/** A direct sub-community: its size, its members and, when generated, its report. */
export interface SubCommunity {
  community: number
  size: number
  members: ReadonlySet<string>
  fullContent: string | undefined
}

export interface CommunityContext {
  text: string
  tokens: number
  /** The sub-communities whose reports stand in the context (largest first). */
  substituted: number[]
}

function reportsSection(subs: readonly SubCommunity[]): string {
  if (subs.length === 0) return ''
  return renderSection('Reports', ['community', 'full_content'], subs.map((s) => [s.community, s.fullContent ?? '']))
}

export function buildCommunityContext(
  local: LocalContext,
  subCommunities: readonly SubCommunity[],
  budget: number,
  countTokens: CountTokens,
): CommunityContext {
  const own = renderFull(local, countTokens)
  const reported = subCommunities
    .filter((s) => s.fullContent !== undefined)
    .sort((a, b) => b.size - a.size || a.community - b.community)
  if (own.tokens <= budget) return { ...own, substituted: [] }
  if (reported.length === 0) return { ...renderTrimmed(local, budget, countTokens), substituted: [] }

  const covered = new Set<string>()
  const remaining = (): Set<string> => new Set([...local.members.keys()].filter((t) => !covered.has(t)))
  for (let i = 1; i <= reported.length; i++) {
    reported[i - 1]!.members.forEach((t) => covered.add(t))
    const head = reportsSection(reported.slice(0, i))
    const text = joinParts(head, renderFull(local, countTokens, remaining()).text)
    const tokens = countTokens(text)
    if (tokens <= budget) return { text, tokens, substituted: reported.slice(0, i).map((s) => s.community) }
  }
  const all = reportsSection(reported)
  if (countTokens(all) <= budget) {
    const trimmed = renderTrimmed(local, budget, countTokens, { members: remaining(), head: all })
    return { ...trimmed, substituted: reported.map((s) => s.community) }
  }
  return reportsOnly(reported, budget, countTokens)
}

/** The longest prefix of reports (at least one) whose section fits the budget. */
function reportsOnly(reported: readonly SubCommunity[], budget: number, countTokens: CountTokens): CommunityContext {
  let kept = 1
  while (kept < reported.length && countTokens(reportsSection(reported.slice(0, kept + 1))) <= budget) kept++
  const text = reportsSection(reported.slice(0, kept))
  return { text, tokens: countTokens(text), substituted: reported.slice(0, kept).map((s) => s.community) }
}
