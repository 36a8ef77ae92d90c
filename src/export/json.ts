/**
 * JSON in graphology's serialisation format (`Graph.from(json)` and sigma.js read it back), with the
 * communities and their reports as graph attributes, since JSON, unlike GraphML, can nest them.
 */
import type { ExportGraph } from './build-graph.js'
import type { Membership } from './communities.js'

export function writeJson(graph: ExportGraph, membership: Membership): string {
  const serialised = graph.export()
  const communities = [...membership.communities.values()]
    .sort((a, b) => a.level - b.level || a.community - b.community)
    .map((c) => {
      const report = membership.reports.get(c.community)
      return {
        community: c.community,
        level: c.level,
        parent: c.parent,
        children: c.children,
        title: c.title,
        size: c.size,
        report:
          report === undefined
            ? null
            : {
                title: report.title,
                summary: report.summary,
                rank: report.rank,
                rating_explanation: report.rating_explanation,
                findings: report.findings,
                full_content: report.full_content,
              },
      }
    })
  return `${JSON.stringify({ ...serialised, attributes: { ...serialised.attributes, communities } }, null, 2)}\n`
}
