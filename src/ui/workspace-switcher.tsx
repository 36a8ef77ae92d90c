/**
 * The workspace switcher of the header: the workspaces this token reaches (GET /workspaces), each a
 * page of its own at /w/{name}/ (the default workspace at /). Hidden when there is only one. A page
 * on a workspace the token does not reach moves to the first one it does. It never asks for the token
 * itself: it asks the server again when the page's calls have been given one.
 */
import { useEffect, useState } from 'preact/hooks'
import { apiBase, onTokenSaved, serverJson } from './api.js'

interface Reachable {
  default: boolean
  workspaces: { name: string; path: string }[]
}

/** The pages this token can open, as [label, path] (the default workspace first). */
function workspacePages(reachable: Reachable): [string, string][] {
  return [
    ...(reachable.default ? [['default', '/'] as [string, string]] : []),
    ...reachable.workspaces.map((w): [string, string] => [w.name, w.path]),
  ]
}

export function WorkspaceSwitcher() {
  const [pages, setPages] = useState<[string, string][]>([])
  const here = `${apiBase()}/`
  useEffect(() => {
    const load = () =>
      serverJson<Reachable>('/workspaces').then(
        (reachable) => {
          // Refused (no token yet): asked again once the page's own calls have a token.
          if (reachable === undefined) return
          const found = workspacePages(reachable)
          setPages(found)
          if (found.length > 0 && !found.some(([, path]) => path === here))
            location.replace(`${found[0]![1]}${location.hash}`)
        },
        // A network failure: no switcher; the page's own calls say what is wrong.
        () => setPages([]),
      )
    void load()
    return onTokenSaved(load)
  }, [])
  if (pages.length < 2) return null
  return (
    <label class="workspace-switcher">
      <span class="meta">Workspace</span>
      <select id="workspace" value={here} onChange={(e) => location.assign(`${e.currentTarget.value}${location.hash}`)}>
        {pages.map(([label, path]) => (
          <option value={path} key={path}>
            {label}
          </option>
        ))}
      </select>
    </label>
  )
}
