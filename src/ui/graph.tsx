/**
 * Graph: the explorer of `graphrag export --format html` over the live index. The server builds the
 * viewer's data (GET /ui/graph); the same viewer code draws it, with a level picker, type and
 * community filters, fullscreen, and each entity's source passages and corrections (rename, type,
 * merge, delete as curation rules) added to its details panel.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { element } from '../export/viewer/dom.js'
import { filterControls, fullscreenButton, levelPicker } from './graph-controls.js'
import { mountViewer, type MountedViewer } from '../export/viewer/mount.js'
import type { ViewerData, ViewerNode } from '../export/viewer-data.js'
import { apiJson } from './api.js'
import { addCuration } from './graph-curation.js'
import type { Passage } from './source.js'

export function GraphPage() {
  const host = useRef<HTMLDivElement>(null)
  const [level, setLevel] = useState<number | undefined>(undefined)
  const [status, setStatus] = useState<string>('Building the graph…')
  useEffect(() => {
    let viewer: MountedViewer | undefined
    let cancelled = false
    setStatus('Building the graph…')
    apiJson<ViewerData>(level === undefined ? '/ui/graph' : `/ui/graph?level=${level}`).then(
      (data) => {
        if (cancelled || host.current === null) return
        try {
          const controls = [
            levelPicker(data, setLevel),
            filterControls(data, () => viewer),
            fullscreenButton(host.current),
          ]
          viewer = mountViewer(host.current, data, {
            controls,
            onDetails: (node, panel) => {
              addPassages(node, panel)
              addCuration(node, panel)
            },
          })
        } catch (error) {
          setStatus(`The graph cannot be drawn: ${(error as Error).message}`)
          return
        }
        // The same handle the exported page offers, for scripts and tests.
        Object.assign(window, { graphragViewer: viewer })
        host.current.dataset.ready = 'true'
        setStatus('')
      },
      (error: Error) => !cancelled && setStatus(error.message),
    )
    return () => {
      cancelled = true
      viewer?.kill()
      if (host.current !== null) delete host.current.dataset.ready
    }
  }, [level])
  return (
    <div class="graph-page">
      {/* The viewer owns this element's children; preact renders nothing inside it. */}
      <div class="graph-host" id="graph-host" ref={host} />
      {status !== '' && <p class="graph-status">{status}</p>}
    </div>
  )
}

/** Appends the passages the entity was extracted from to its details panel (fetched when it opens). */
function addPassages(node: ViewerNode, panel: HTMLElement): void {
  const section = element('div', { className: 'passages' }, [
    element('h3', { textContent: 'Source passages' }),
    element('p', { className: 'empty', textContent: 'Loading…' }),
  ])
  panel.append(section)
  apiJson<{ total: number; passages: Passage[] }>(`/ui/passages?entity=${encodeURIComponent(node.key)}`).then(
    (reply) => {
      const shown = reply.total > reply.passages.length ? ` (${reply.passages.length} of ${reply.total})` : ''
      section.replaceChildren(
        element('h3', { textContent: `Source passages${shown}` }),
        ...reply.passages.map((p) =>
          element('blockquote', { className: 'passage' }, [
            element('div', { className: 'meta', textContent: `${p.document} · text unit ${p.human_readable_id}` }),
            p.text,
          ]),
        ),
      )
    },
    (error: Error) =>
      section.replaceChildren(
        element('h3', { textContent: 'Source passages' }),
        element('p', { className: 'empty', textContent: error.message }),
      ),
  )
}
