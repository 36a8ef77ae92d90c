/**
 * The workspace switcher of the header: the workspaces this token reaches (GET /workspaces), each a
 * page of its own at /w/{name}/ (the default workspace at /). Hidden when there is only one. A page
 * on a workspace the token does not reach moves to the first one it does.
 */
import { useEffect, useState } from 'preact/hooks'
import { apiBase, serverJson } from './api.js'

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
    serverJson<Reachable>('/workspaces').then(
      (reachable) => {
        const found = workspacePages(reachable)
        setPages(found)
        if (found.length > 0 && !found.some(([, path]) => path === here))
          location.replace(`${found[0]![1]}${location.hash}`)
      },
      // An older server without workspaces: no switcher.
      () => setPages([]),
    )
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
