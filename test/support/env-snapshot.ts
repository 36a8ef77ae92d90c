/**
 * Saves the environment and puts it back in place. Assigning a copy to `process.env` would not do:
 * the copy is a plain object, so variables set before stay in the real environment (which native
 * code such as LanceDB's object-store client reads), and later assignments no longer reach it. Test
 * files share a worker (vitest isolate: false), so a leak reaches whatever file runs next.
 */
export function snapshotEnv(): () => void {
  const saved = { ...process.env }
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}
