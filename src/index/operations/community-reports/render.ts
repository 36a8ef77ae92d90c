/**
 * Report rendering shared by the graph (LLM) and text (extractive) report writers: the markdown
 * `full_content`, the pydantic-style `full_content_json`, the SHA-512 id, and finalisation into
 * COMMUNITY_REPORTS rows (parent/children/size/period joined from the communities table).
 */
import { createHash } from 'node:crypto'
import { InternalError } from '../../../errors.js'
import type { CommunityRow } from '../../../model/communities.js'
import type { CommunityReportRow } from '../../../model/community-reports.js'

/** One finding as the model writes it (the JSON key order is summary, explanation). */
export interface ReportFinding {
  summary: string
  explanation: string
}

/** The structured report a writer produces for one community. */
export interface ReportContent {
  title: string
  summary: string
  findings: readonly ReportFinding[]
  rating: number
  rating_explanation: string
}

/** A report before finalisation: which community and level it belongs to, plus its content. */
export interface CommunityReportDraft extends ReportContent {
  community: number
  level: number
}

// A report's full content is rendered for its parent's context and again for its row: kept per report
// object (reports are not changed once written), so a large graph's ~28,000 texts are made once.
const rendered = new WeakMap<ReportContent, string>()

/** `# title`, the summary, then one `## summary` section per finding, separated by blank lines. */
export function renderFullContent(report: ReportContent): string {
  let text = rendered.get(report)
  if (text === undefined) {
    const head = `# ${report.title}\n\n${report.summary}\n\n`
    text = head + report.findings.map((f) => `## ${f.summary}\n\n${f.explanation}`).join('\n\n')
    rendered.set(report, text)
  }
  return text
}

/**
 * Renders a float the way pydantic's JSON serialiser does: integral values keep a `.0`
 * (`7.0`), others use the shortest round-trip form (`8.5`), non-finite values become null.
 */
function renderFloat(value: number): string {
  if (!Number.isFinite(value)) return 'null'
  return Number.isInteger(value) ? `${value.toFixed(0)}.0` : String(value)
}

/**
 * `model_dump_json(indent=4)` of the report: 4-space indent, keys in declaration order, non-ASCII
 * characters written as-is (JSON.stringify escapes only quotes, backslashes and control characters,
 * as pydantic does).
 */
function renderFullContentJson(report: ReportContent): string {
  const s = (value: string): string => JSON.stringify(value)
  const findings =
    report.findings.length === 0
      ? '[]'
      : '[\n' +
        report.findings
          .map(
            (f) =>
              `        {\n            "summary": ${s(f.summary)},\n            "explanation": ${s(f.explanation)}\n        }`,
          )
          .join(',\n') +
        '\n    ]'
  return [
    '{',
    `    "title": ${s(report.title)},`,
    `    "summary": ${s(report.summary)},`,
    `    "findings": ${findings},`,
    `    "rating": ${renderFloat(report.rating)},`,
    `    "rating_explanation": ${s(report.rating_explanation)}`,
    '}',
  ].join('\n')
}

/** The report id: SHA-512 hex of full_content, as in the reference. */
export function reportId(fullContent: string): string {
  return createHash('sha512').update(fullContent, 'utf8').digest('hex')
}

/**
 * The id of a report whose full_content another report of the table shares (small or extractive
 * reports can be word for word the same): the reference gives them one id, which breaks joins and
 * the vector store; here each gets the SHA-512 of its community, level and content, so ids are unique
 * and stay the same on every run with the same reports.
 */
export function sharedContentReportId(community: number, level: number, fullContent: string): string {
  return createHash('sha512').update(`${community}\u0000${level}\u0000${fullContent}`, 'utf8').digest('hex')
}

/** What a report row takes from its community's row. */
export type ReportedCommunity = Pick<CommunityRow, 'community' | 'parent' | 'children' | 'period' | 'size'>

/**
 * Builds the final rows: renders content and id, joins parent/children/size/period from the
 * communities table, and orders rows deepest level first, then by community id.
 */
export function finalizeReports(
  reports: readonly CommunityReportDraft[],
  communities: readonly ReportedCommunity[],
): CommunityReportRow[] {
  const byCommunity = new Map(communities.map((c) => [c.community, c]))
  const ordered = [...reports].sort((a, b) => b.level - a.level || a.community - b.community)
  const contents = ordered.map(renderFullContent)
  const uses = new Map<string, number>()
  for (const content of contents) uses.set(content, (uses.get(content) ?? 0) + 1)
  return ordered.map((report, i) => {
    const community = byCommunity.get(report.community)
    if (community === undefined) {
      throw new InternalError(`community report for community ${report.community} has no row in the communities table`)
    }
    const fullContent = contents[i]!
    return {
      id:
        uses.get(fullContent)! > 1
          ? sharedContentReportId(report.community, report.level, fullContent)
          : reportId(fullContent),
      human_readable_id: report.community,
      community: report.community,
      level: report.level,
      parent: community.parent,
      children: [...community.children],
      title: report.title,
      summary: report.summary,
      full_content: fullContent,
      rank: report.rating,
      rating_explanation: report.rating_explanation,
      findings: report.findings.map((f) => ({ explanation: f.explanation, summary: f.summary })),
      full_content_json: renderFullContentJson(report),
      period: community.period,
      size: community.size,
    }
  })
}
