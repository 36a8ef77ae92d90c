/** The legend: the largest communities' colours and report titles. */
import type { ViewerCommunity } from '../viewer-data.js'
import { element } from './dom.js'

const MAX_ENTRIES = 12

export function renderLegend(parent: HTMLElement, communities: readonly ViewerCommunity[]): void {
  if (communities.length === 0) return
  const legend = element('div', { id: 'legend' })
  for (const c of communities.slice(0, MAX_ENTRIES)) {
    const swatch = element('span', { className: 'swatch' })
    swatch.style.background = c.color
    legend.append(element('div', { title: c.summary }, [swatch, `${c.title} (${c.size})`]))
  }
  if (communities.length > MAX_ENTRIES)
    legend.append(element('div', { textContent: `and ${communities.length - MAX_ENTRIES} smaller communities` }))
  parent.append(legend)
}
