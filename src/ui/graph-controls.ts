/**
 * The graph page's controls added to the viewer's side panel: the community level nodes are
 * coloured by, filters by entity type and by community, and fullscreen.
 */
import { element } from '../export/viewer/dom.js'
import type { Filter } from '../export/viewer/explore.js'
import type { MountedViewer } from '../export/viewer/mount.js'
import type { ViewerData } from '../export/viewer-data.js'

export function levelPicker(data: ViewerData, choose: (level: number) => void): HTMLElement {
  const select = element('select', { id: 'level' })
  for (const l of data.levels.length > 0 ? data.levels : [data.level])
    select.append(element('option', { value: String(l), textContent: `level ${l}`, selected: l === data.level }))
  select.addEventListener('change', () => choose(Number(select.value)))
  return element('label', { className: 'level-picker' }, ['Colour by community ', select])
}

/**
 * The type and community filters. The viewer is mounted after its controls, so they reach it
 * through `viewer()`, which answers undefined until then.
 */
export function filterControls(data: ViewerData, viewer: () => MountedViewer | undefined): HTMLElement {
  const filter: Filter = { type: '', community: undefined }
  const types = [...new Set(data.nodes.map((n) => n.type).filter((t) => t !== ''))].sort()
  const typeSelect = picker(
    'type-filter',
    'All types',
    types.map((t) => [t, t]),
  )
  const communitySelect = picker(
    'community-filter',
    'All communities',
    data.communities.map((c) => [String(c.community), `${c.community}: ${c.title}`]),
  )
  const apply = () => {
    filter.type = typeSelect.value
    filter.community = communitySelect.value === '' ? undefined : Number(communitySelect.value)
    viewer()?.setFilter({ ...filter })
  }
  typeSelect.addEventListener('change', apply)
  communitySelect.addEventListener('change', apply)
  return element('div', { className: 'graph-filters' }, [
    element('label', {}, ['Type ', typeSelect]),
    element('label', {}, ['Community ', communitySelect]),
  ])
}

function picker(id: string, all: string, options: Array<[string, string]>): HTMLSelectElement {
  const select = element('select', { id })
  select.append(element('option', { value: '', textContent: all }))
  for (const [value, label] of options) select.append(element('option', { value, textContent: label }))
  return select
}

/** Fullscreen for the graph (the browser's Fullscreen API on the graph's host); Escape leaves it. */
export function fullscreenButton(host: HTMLElement): HTMLElement {
  const button = element('button', { type: 'button', id: 'fullscreen', className: 'secondary small' })
  const label = () => {
    button.textContent = document.fullscreenElement === host ? 'Exit fullscreen' : 'Fullscreen'
  }
  label()
  button.addEventListener('click', () => {
    const change = document.fullscreenElement === host ? document.exitFullscreen() : host.requestFullscreen()
    change.then(label, (error: Error) => {
      button.title = `Fullscreen refused: ${error.message}`
    })
  })
  document.addEventListener('fullscreenchange', label)
  return button
}
