/** The details panel of a selected entity: description, relationships, and its community's report. */
import type Graph from 'graphology'
import type { ViewerCommunity, ViewerData, ViewerNode } from '../viewer-data.js'
import { element } from './dom.js'

export interface Selection {
  node: ViewerNode
  graph: Graph
  byKey: ReadonlyMap<string, ViewerNode>
  communities: ReadonlyMap<number, ViewerCommunity>
  data: ViewerData
}

/** Relationships listed at most; the count says how many there are in all. */
const MAX_RELATIONSHIPS = 100

export function showDetails(
  panel: HTMLElement,
  selection: Selection,
  select: (node: string | undefined) => void,
): void {
  const { node } = selection
  const close = element('button', { id: 'close', title: 'Close', textContent: '×' })
  close.addEventListener('click', () => select(undefined))
  const meta = [node.type, `degree ${node.degree}`].filter((part) => part !== '').join(' · ')
  panel.replaceChildren(
    close,
    element('h2', { textContent: node.key }),
    element('div', { className: 'meta', textContent: meta }),
    node.description === ''
      ? element('p', {
          className: 'empty',
          textContent: 'No description in the index (the fast method extracts none).',
        })
      : element('p', { textContent: node.description }),
    ...communitySection(selection),
    ...relationshipSection(selection, select),
  )
  panel.dataset.node = node.key
  panel.hidden = false
}

function communitySection({ node, communities, data }: Selection): HTMLElement[] {
  const community = communities.get(node.community)
  if (community === undefined)
    return [
      element('h3', { textContent: 'Community' }),
      element('p', { className: 'empty', textContent: 'In no community.' }),
    ]
  const levelNote = community.level === data.level ? '' : ` (level ${community.level}: not split further)`
  return [
    element('h3', { textContent: `Community ${community.community}${levelNote}` }),
    element('p', { className: 'report-title' }, [element('strong', { textContent: community.title })]),
    community.summary === ''
      ? element('p', { className: 'empty', textContent: 'No report.' })
      : element('p', { className: 'report-summary', textContent: community.summary }),
  ]
}

function relationshipSection(
  { node, graph, data }: Selection,
  select: (node: string | undefined) => void,
): HTMLElement[] {
  const rows = graph
    .mapEdges(node.key, (edge, _attributes, source, target) => {
      const [, , weight, description] = data.edges[Number(edge)]!
      return { other: source === node.key ? target : source, weight, description }
    })
    .sort((a, b) => b.weight - a.weight || (a.other < b.other ? -1 : 1))
  const list = element('ul', { className: 'relationships' })
  for (const row of rows.slice(0, MAX_RELATIONSHIPS)) {
    const link = element('a', { textContent: row.other })
    link.addEventListener('click', () => select(row.other))
    const text = row.description === '' ? ` (weight ${formatWeight(row.weight)})` : `: ${row.description}`
    list.append(element('li', {}, [link, text]))
  }
  const more = rows.length > MAX_RELATIONSHIPS ? ` (the ${MAX_RELATIONSHIPS} strongest shown)` : ''
  return [element('h3', { textContent: `Relationships: ${rows.length}${more}` }), list]
}

function formatWeight(weight: number): string {
  return Math.abs(weight) >= 0.01 || weight === 0 ? weight.toFixed(2) : weight.toExponential(1)
}
