/**
 * The web UI's page and assets at `/` and `/ui/*`: the bundle `npm run build` writes into dist/ui/
 * (preact + the graph viewer, no CDN). Served before the bearer check, since the page has to load to
 * ask for the token; it holds no data, and everything it shows comes from the authenticated API.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context, Hono } from 'hono'
import { VIEWER_STYLE } from '../export/viewer-style.js'

// Two levels up from src/server (tests) and from dist/server (the CLI) is the package root.
const UI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'ui')

/** Only these files are served: no path from the request ever reaches the file system. */
const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
}

/** Scripts and styles from this server only; no frames, no form posts elsewhere, no plugins. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>graphrag</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/app.css">
<link rel="stylesheet" href="/ui/viewer.css">
</head>
<body>
<div id="app"><noscript>The graphrag web UI needs JavaScript.</noscript></div>
<script src="/ui/app.js"></script>
</body>
</html>
`

export function registerUiRoutes(app: Hono): void {
  app.get('/', (c) => {
    secure(c)
    return c.html(PAGE)
  })
  // The same page on a workspace (it takes its API base from the address); for any name, so the page
  // says nothing about which workspaces exist.
  app.get('/w/:workspace{[a-z0-9-]+}/', (c) => {
    secure(c)
    return c.html(PAGE)
  })
  // The page's address needs its slash: its API base is read from it.
  app.get('/w/:workspace{[a-z0-9-]+}', (c) => c.redirect(`/w/${c.req.param('workspace')}/`, 308))
  app.get('/ui/viewer.css', (c) => {
    secure(c)
    return c.body(VIEWER_STYLE, 200, { 'content-type': 'text/css; charset=utf-8' })
  })
  app.get('/ui/:asset{[a-z]+\\.(js|css)}', async (c) => {
    const name = c.req.param('asset')
    const type = ASSETS[name]
    if (type === undefined) return c.notFound()
    let body: Buffer
    try {
      body = await readFile(join(UI_DIR, name))
    } catch {
      return c.json(
        {
          error: {
            message: `the web UI is not built (${join(UI_DIR, name)}); run \`npm run build\``,
            type: 'not_found',
          },
        },
        404,
      )
    }
    secure(c)
    return c.body(new Uint8Array(body), 200, { 'content-type': type })
  })
}

/** The headers of every page and asset of the web UI (and of /docs). */
export function secure(c: Context): void {
  c.header('Content-Security-Policy', CSP)
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Referrer-Policy', 'no-referrer')
  // A new build is picked up on reload: the files are small, and revalidating them is cheap on loopback.
  c.header('Cache-Control', 'no-cache')
}
