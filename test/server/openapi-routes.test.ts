/**
 * The OpenAPI document and the app cannot drift (issue 43 item 6): the document's operations are
 * exactly the routes the app registers (every one documented, nothing documented that is not
 * served), workspace routes included; request bodies are the routes' own zod schemas.
 */
import { describe, expect, it } from 'vitest'
import { createApp, type ProjectParts } from '../../src/server/app.js'
import { DocumentCatalog } from '../../src/server/documents.js'
import { IndexJobs } from '../../src/server/index-jobs.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { INGEST_QUERY_PARAMETERS } from '../../src/server/ingest-params.js'
import { OPENAPI } from '../../src/server/openapi.js'
import { QueryService } from '../../src/server/query-service.js'
import { INDEX, QUERY } from '../../src/server/requests.js'
import { testdir } from '../support/testdir.js'

async function projectParts(): Promise<ProjectParts> {
  const root = await testdir({ 'settings.yaml': 'input:\n  type: text\n' })
  const queries = new QueryService({ root, env: {} }, { embeddings: 0, answers: 0 })
  return {
    queries,
    jobs: new IndexJobs({ root, env: {} }, () => {}),
    probe: new ModelProbe(),
    documents: new DocumentCatalog(() => queries.config()),
    maxUploadBytes: 1 << 20,
  }
}

/** `METHOD /path` of each registered route, in the document's spelling (`:id` → `{id}`, a workspace → `{workspace}`). */
function registered(routes: readonly { method: string; path: string }[], names: readonly string[]): Set<string> {
  const workspace = new RegExp(`^/w/(${names.join('|')})(?=/)`)
  return new Set(
    routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => {
        const path = r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}').replace(workspace, '/w/{workspace}')
        return `${r.method} ${path}`
      }),
  )
}

function documented(): Set<string> {
  return new Set(
    Object.entries(OPENAPI.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  )
}

describe('/openapi.json against the app', () => {
  it('documents exactly the routes the app registers, with two workspaces', async () => {
    const names = ['alpha', 'bravo']
    const app = createApp({
      project: await projectParts(),
      workspaces: new Map(
        await Promise.all(names.map(async (n) => [n, { parts: await projectParts(), token: undefined }] as const)),
      ),
      token: undefined,
      maxBodyBytes: 1 << 20,
      web: { boundHost: '127.0.0.1', allowedHosts: [], corsOrigins: [] },
    })
    const routes = registered(app.routes, names)
    const doc = documented()
    expect(
      [...routes].filter((r) => !doc.has(r)),
      'registered but not documented',
    ).toEqual([])
    expect(
      [...doc].filter((r) => !routes.has(r)),
      'documented but not registered',
    ).toEqual([])
    expect(routes).toContain('POST /w/{workspace}/query')
    expect(routes).toContain('GET /ui/{asset}')
    expect(routes.size).toBeGreaterThan(50)
  })

  it('takes request bodies from the zod schemas the routes validate with', () => {
    const paths = OPENAPI.paths as Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
    >
    const index = paths['/index']!.post!.requestBody!.content['application/json']!.schema as {
      properties: Record<string, { enum?: string[]; description?: string }>
    }
    expect(Object.keys(index.properties).sort()).toEqual(Object.keys(INDEX.shape).sort())
    expect(index.properties.mode!.enum).toEqual(['index', 'update'])
    expect(index.properties.mode!.description).toMatch(/update/)
    const query = OPENAPI.components.schemas.Query as { properties: Record<string, unknown>; required: string[] }
    expect(Object.keys(query.properties).sort()).toEqual(Object.keys(QUERY.shape).sort())
    expect(query.required).toEqual(['question'])
    expect(query.properties.community_level).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 })
    // The same body under a workspace, which adds its path parameter.
    expect(paths['/w/{workspace}/index']!.post!.requestBody).toEqual(paths['/index']!.post!.requestBody)
  })
})

describe('/openapi.json: the ingest parameters', () => {
  it('lists every query parameter POST /ingest reads, the relations-only ones included', () => {
    const ingest = (OPENAPI.paths as unknown as Record<string, { post: { parameters: Array<{ name: string }> } }>)[
      '/ingest'
    ]!
    const names = ingest.post.parameters.map((p) => p.name)
    for (const name of INGEST_QUERY_PARAMETERS) expect(names, name).toContain(name)
    expect(INGEST_QUERY_PARAMETERS).toContain('rel_window')
  })
})
