/**
 * GET /docs: the API reference as one HTML page rendered on the server from the OpenAPI document
 * (no script, no CDN, the web UI's CSP): every path and method with its parameters, body and
 * responses, then the shared schemas. Public like the web UI's page: it describes the API and holds
 * no data of the project.
 */
import type { Hono } from 'hono'
import { OPENAPI } from './openapi.js'
import { secure } from './ui-routes.js'
import { escapeMarkup } from '../text/markup.js'

interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: unknown
  description?: string
}

interface Operation {
  summary?: string
  description?: string
  parameters?: readonly Parameter[]
  requestBody?: { content?: Record<string, { schema?: unknown }> }
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>
  /** Set on a project route's copy under /w/{workspace}: the route it repeats. */
  'x-workspace-of'?: string
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
const STYLE_PATH = '/docs/style.css'

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1b1f24;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e6e6;background:#15181c}a{color:#8ab4f8}pre,code{background:#22262b}}
h1{margin-bottom:0}nav ul{columns:2;padding-left:1rem}section.op{border-top:1px solid #8884;padding:.5rem 0}
.method{display:inline-block;min-width:4rem;font:600 .8rem monospace;text-transform:uppercase}
.get{color:#1a7f37}.post{color:#0969da}.delete{color:#cf222e}.put,.patch{color:#9a6700}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #8883;text-align:left;padding:.2rem .4rem;vertical-align:top}
pre{overflow-x:auto;padding:.5rem;background:#f3f4f6;font-size:.8rem}code{background:#f3f4f6;padding:0 .2rem}`

export function registerApiDocs(app: Hono): void {
  app.get('/docs', (c) => {
    secure(c)
    return c.html(renderApiDocs())
  })
  app.get(STYLE_PATH, (c) => {
    secure(c)
    return c.body(STYLE, 200, { 'content-type': 'text/css; charset=utf-8' })
  })
}

/** The anchor of one operation: `get-documents-id` for GET /documents/{id}. */
export function operationAnchor(method: string, path: string): string {
  return `${method}${path.replace(/[^a-zA-Z0-9]+/g, '-')}`.replace(/-+$/, '')
}

function renderApiDocs(): string {
  const paths = OPENAPI.paths as Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((method) => ({ path, method, op: item[method]! })),
  )
  const [copies, own] = partition(operations, ({ op }) => op['x-workspace-of'] !== undefined)
  const toc = own
    .map(
      ({ path, method, op }) =>
        `<li><a href="#${operationAnchor(method, path)}"><span class="method ${method}">${method}</span> ${escapeMarkup(path)}</a> ${escapeMarkup(op.summary ?? '')}</li>`,
    )
    .join('\n')
  const schemas = Object.entries(OPENAPI.components.schemas as Record<string, unknown>)
    .map(([name, schema]) => `<h3 id="schema-${escapeMarkup(name)}">${escapeMarkup(name)}</h3>\n${schemaBlock(schema)}`)
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>graphrag API ${escapeMarkup(OPENAPI.info.version)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body>
<h1>${escapeMarkup(OPENAPI.info.title)}</h1>
<p>API ${escapeMarkup(OPENAPI.info.version)} · ${escapeMarkup(OPENAPI.info.description)} · <a href="/openapi.json">openapi.json</a> · <a href="/">web UI</a></p>
<nav><ul>
${toc}
</ul></nav>
${own.map(({ path, method, op }) => renderOperation(path, method, op)).join('\n')}
${renderWorkspaceCopies(copies)}
<h2>Schemas</h2>
${schemas}
</body>
</html>
`
}

type Listed = { path: string; method: string; op: Operation }

function partition(operations: Listed[], test: (o: Listed) => boolean): [Listed[], Listed[]] {
  return [operations.filter(test), operations.filter((o) => !test(o))]
}

/** Every project route again under /w/{workspace}: one line each, linking to the route it repeats. */
function renderWorkspaceCopies(copies: readonly Listed[]): string {
  const rows = copies.map(({ path, method, op }) => {
    const of = op['x-workspace-of'] ?? path
    return `<tr id="${operationAnchor(method, path)}"><td><span class="method ${method}">${method}</span></td><td><code>${escapeMarkup(path)}</code></td><td><a href="#${operationAnchor(method, of)}">${escapeMarkup(of)}</a></td></tr>`
  })
  return `<section class="op" id="workspaces"><h2>Workspace routes</h2>
<p>Every project route is also served under <code>/w/{workspace}</code> for each workspace of the server (its own index, jobs and caches); the same parameters, bodies and responses, plus a 404 for a workspace the token does not reach.</p>
<table><tbody>${rows.join('')}</tbody></table></section>`
}

function renderOperation(path: string, method: string, op: Operation): string {
  const parts = [
    `<section class="op" id="${operationAnchor(method, path)}">`,
    `<h2><span class="method ${method}">${method}</span> <code>${escapeMarkup(path)}</code></h2>`,
    `<p>${escapeMarkup(op.summary ?? '')}</p>`,
  ]
  if (op.description !== undefined) parts.push(`<p>${escapeMarkup(op.description)}</p>`)
  if (op.parameters !== undefined && op.parameters.length > 0) {
    const rows = op.parameters.map(
      (p) =>
        `<tr><td><code>${escapeMarkup(p.name)}</code></td><td>${escapeMarkup(p.in)}${p.required === true ? ', required' : ''}</td><td>${schemaSummary(p.schema)}</td><td>${escapeMarkup(p.description ?? '')}</td></tr>`,
    )
    parts.push(`<h3>Parameters</h3><table><tbody>${rows.join('')}</tbody></table>`)
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
    parts.push(`<h3>Body <code>${escapeMarkup(type)}</code></h3>`, schemaBlock(media.schema))
  const responses = Object.entries(op.responses ?? {}).map(
    ([status, r]) =>
      `<tr><td>${escapeMarkup(status)}</td><td>${escapeMarkup(r.description ?? '')}${responseSchemas(r.content)}</td><td>${Object.keys(
        r.content ?? {},
      )
        .map((t) => `<code>${escapeMarkup(t)}</code>`)
        .join(' ')}</td></tr>`,
  )
  parts.push(`<h3>Responses</h3><table><tbody>${responses.join('')}</tbody></table>`, '</section>')
  return parts.join('\n')
}

/** The schemas of a response that say more than a type, each folded under its media type. */
function responseSchemas(content: Record<string, { schema?: unknown }> | undefined): string {
  return Object.entries(content ?? {})
    .filter(([, media]) => Object.keys((media.schema ?? {}) as object).some((key) => key !== 'type'))
    .map(
      ([type, media]) =>
        `<details><summary>${escapeMarkup(type)} schema</summary>${schemaBlock(media.schema)}</details>`,
    )
    .join('')
}

/** A schema as indented JSON, its `$ref`s linked to the schema section. */
function schemaBlock(schema: unknown): string {
  const text = escapeMarkup(JSON.stringify(schema ?? {}, null, 2))
  return `<pre>${text.replace(/&quot;#\/components\/schemas\/(\w+)&quot;/g, '<a href="#schema-$1">$1</a>')}</pre>`
}

function schemaSummary(schema: unknown): string {
  const s = (schema ?? {}) as { type?: unknown; enum?: unknown[] }
  if (Array.isArray(s.enum)) return s.enum.map((v) => `<code>${escapeMarkup(String(v))}</code>`).join(' ')
  return escapeMarkup(Array.isArray(s.type) ? s.type.join(' | ') : String(s.type ?? ''))
}
