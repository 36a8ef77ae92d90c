/**
 * Fingerprint material with the project's location taken out: settings hold absolute paths (input
 * folder, prompt files, vector store), and a moved or copied project must still resume.
 */
import { isAbsolute, relative, sep } from 'node:path'

/** A deep copy of `value` in which every absolute path inside `root` is written relative to it (`/`-separated). */
export function relativeToRoot(value: unknown, root: string): unknown {
  if (typeof value === 'string')
    return isAbsolute(value) && inside(value, root) ? portable(relative(root, value)) : value
  if (Array.isArray(value)) return value.map((v) => relativeToRoot(v, root))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, relativeToRoot(v, root)]),
    )
  }
  return value
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}

function portable(path: string): string {
  return path === '' ? '.' : path.split(sep).join('/')
}
