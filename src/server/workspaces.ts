/**
 * Workspaces: one `serve` hosting several projects. The project at the serve root is the default
 * workspace (the routes without a prefix); `server.workspaces` in the serve root's settings and the
 * repeated `--workspace name=root` flag add named ones, each served under `/w/{name}/…`. Roots come
 * only from there (never from a request), and a name is a plain lowercase word, so it can neither
 * climb out of a path nor collide with another once turned into its token's variable name.
 */
import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { ConfigError } from '../errors.js'

export interface WorkspaceSpec {
  name: string
  /** Absolute project root. */
  root: string
}

/** Lowercase letters, digits and inner dashes, at most 40 characters: safe in a URL, a path and an env var name. */
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/

function checkWorkspaceName(name: string, where: string): string {
  if (!NAME.test(name))
    throw new ConfigError(
      `${where}: workspace name ${JSON.stringify(name)} is not allowed; use lowercase letters, digits and inner dashes (at most 40 characters)`,
    )
  return name
}

/** `--workspace name=root`: the flag's value, checked. */
export function parseWorkspaceFlag(value: string): { name: string; root: string } {
  const at = value.indexOf('=')
  if (at <= 0 || at === value.length - 1)
    throw new ConfigError(
      `--workspace ${JSON.stringify(value)}: expected name=root (e.g. --workspace docs=../docs-project)`,
    )
  return { name: checkWorkspaceName(value.slice(0, at), '--workspace'), root: value.slice(at + 1) }
}

/** The variable holding a workspace's own token: GRAPHRAG_SERVER_TOKEN_<NAME>, dashes as underscores. */
export function workspaceTokenVariable(name: string): string {
  return `GRAPHRAG_SERVER_TOKEN_${name.toUpperCase().replace(/-/g, '_')}`
}

/**
 * The named workspaces, settings first and flags after (a flag replaces the setting of the same name);
 * relative roots are taken from the serve root. Two workspaces on one project would run two index
 * jobs on its files at once, so every root (the serve root included) must be a different folder.
 */
export function workspaceSpecs(
  serveRoot: string,
  fromSettings: Readonly<Record<string, string>>,
  fromFlags: readonly { name: string; root: string }[],
): WorkspaceSpec[] {
  const roots = new Map<string, string>()
  for (const [name, root] of Object.entries(fromSettings))
    roots.set(checkWorkspaceName(name, `server.workspaces.${name}`), root)
  for (const { name, root } of fromFlags) roots.set(checkWorkspaceName(name, '--workspace'), root)
  const seen = new Map<string, string>([[realRoot(serveRoot, 'the serve root'), 'the serve root (default workspace)']])
  return [...roots].map(([name, root]) => {
    const absolute = resolve(serveRoot, root)
    const real = realRoot(absolute, `workspace ${name}`)
    const other = seen.get(real)
    if (other !== undefined)
      throw new ConfigError(`workspace ${name}: its root ${absolute} is already served as ${other}`)
    seen.set(real, `workspace ${name}`)
    return { name, root: absolute }
  })
}

function realRoot(root: string, what: string): string {
  try {
    return realpathSync(root)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ConfigError(`${what}: no folder ${root}`, { cause: error })
    throw error
  }
}
