/**
 * One self-contained HTML page: the graph (positions precomputed), and the viewer script, which is
 * sigma.js + graphology bundled by esbuild at `npm run build` into dist/viewer/. Inlining both makes
 * the file work from disk with no network; the bundle is read from the package, never fetched.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { InternalError } from '../errors.js'
import type { ExportGraph } from './build-graph.js'
import type { Membership } from './communities.js'
import { VIEWER_DATA_ID, type ViewerCommunity, type ViewerData, type ViewerEdge } from './viewer-data.js'
import { PAGE_STYLE, VIEWER_STYLE } from './viewer-style.js'

// Two levels up from src/export (tests) and from dist/export (the CLI) is the package root.
const VIEWER_BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'viewer', 'graph-viewer.js')

export async function writeHtml(graph: ExportGraph, membership: Membership, title: string): Promise<string> {
  const script = await readBundle()
  const data = viewerData(graph, membership, title)
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_STYLE}${VIEWER_STYLE}</style>`,
    '</head>',
    `<body data-node-count="${graph.order}" data-edge-count="${graph.size}" data-level="${data.level}">`,
    '<!-- graphrag export: sigma.js and graphology are MIT licensed, © Guillaume Plique, Alexis Jacomy and contributors -->',
    `<script type="application/json" id="${VIEWER_DATA_ID}">${jsonForScript(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

async function readBundle(): Promise<string> {
  let script: string
  try {
    script = await readFile(VIEWER_BUNDLE, 'utf8')
  } catch (cause) {
    throw new InternalError(`the graph viewer script ${VIEWER_BUNDLE} is missing; run \`npm run build\``, { cause })
  }
  // Inside <script>, only `</script` ends the element early; esbuild escapes it in strings, so none should be left.
  if (/<\/script/i.test(script)) throw new InternalError(`${VIEWER_BUNDLE} contains "</script" and cannot be inlined`)
  return script
}

/** The graph as the viewer draws it (also served to the web UI's graph tab). */
export function viewerData(graph: ExportGraph, membership: Membership, title: string): ViewerData {
  const index = new Map<string, number>()
  const nodes = graph.mapNodes((key, a) => {
    index.set(key, index.size)
    return {
      key,
      type: a.type,
      description: a.description,
      degree: a.degree,
      x: a.x,
      y: a.y,
      size: a.size,
      color: a.color,
      community: a.community,
    }
  })
  const edges = graph.mapEdges(
    (_edge, a, source, target): ViewerEdge => [index.get(source)!, index.get(target)!, a.weight, a.description],
  )
  return {
    title,
    level: graph.getAttribute('level'),
    levels: graph.getAttribute('levels'),
    nodes,
    edges,
    communities: viewerCommunities(graph, membership),
  }
}

function viewerCommunities(graph: ExportGraph, membership: Membership): ViewerCommunity[] {
  const members = new Map<number, { size: number; color: string }>()
  graph.forEachNode((_node, a) => {
    if (a.community === -1) return
    const entry = members.get(a.community) ?? { size: 0, color: a.color }
    entry.size++
    members.set(a.community, entry)
  })
  return [...members.entries()]
    .sort((a, b) => b[1].size - a[1].size || a[0] - b[0])
    .map(([community, { size, color }]) => {
      const row = membership.communities.get(community)
      const report = membership.reports.get(community)
      return {
        community,
        level: row?.level ?? -1,
        size,
        color,
        title: report?.title ?? row?.title ?? `Community ${community}`,
        summary: report?.summary ?? '',
      }
    })
}

/** JSON that cannot end the <script> element or open a comment: `<` is written as its escape. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
