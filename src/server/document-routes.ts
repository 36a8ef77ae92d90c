/**
 * GET /documents, POST /documents (multipart, field `file`, one or more files), DELETE /documents/{id}.
 * A change may start an update job: `?update=true|false`, else `server.auto_update`.
 */
import type { Context, Hono } from 'hono'
import type { LoadedConfig } from '../config/index.js'
import { RequestError } from '../errors.js'
import { limitBody } from './body-limit.js'
import type { DocumentCatalog } from './documents.js'
import { listDocuments, listingQuery } from './document-listing.js'
import type { IndexJobs } from './index-jobs.js'
import { uploadedFiles } from './multipart.js'

export function registerDocumentRoutes(
  app: Hono,
  parts: { documents: DocumentCatalog; jobs: IndexJobs; config: () => LoadedConfig; maxUploadBytes: number },
): void {
  app.get('/documents', async (c) => {
    const listing = await listDocuments(parts.documents, listingQuery(c.req.query()))
    return c.json({ ...listing, index: await parts.documents.hasIndex() })
  })
  app.post('/documents', limitBody(parts.maxUploadBytes, 'server.max_upload_bytes'), async (c) => {
    const update = wantsUpdate(c, parts.config)
    const files = await uploadedFiles(c.req.raw, 'file')
    const { server } = parts.config().settings
    const documents = await parts.documents.upload(files, { maxExpandedBytes: server.max_upload_expanded_bytes })
    return c.json({ documents, ...(update ? await startUpdate(parts) : {}) }, 201)
  })
  app.delete('/documents/:id', async (c) => {
    const update = wantsUpdate(c, parts.config)
    const entry = await parts.documents.remove(c.req.param('id'))
    return c.json({ deleted: entry.id, ...(update ? await startUpdate(parts) : {}) })
  })
}

/** `?update=true|false`, else server.auto_update. */
function wantsUpdate(c: Context, config: () => LoadedConfig): boolean {
  const asked = c.req.query('update')
  if (asked !== undefined && asked !== 'true' && asked !== 'false')
    throw new RequestError(400, 'update: expected true or false')
  return asked === undefined ? config().settings.server.auto_update : asked === 'true'
}

/**
 * Starts an update job (a full index when there is no index yet to update); one already running is
 * said in a warning, not an error (the change is stored).
 */
async function startUpdate(parts: {
  jobs: IndexJobs
  documents: DocumentCatalog
}): Promise<{ job?: { id: string }; warnings?: string[] }> {
  const { jobs } = parts
  const mode = (await parts.documents.hasIndex()) ? 'update' : 'index'
  // No await from here to start(): the check and the start see the same state.
  const running = jobs.running()
  if (running !== undefined)
    return { warnings: [`an index job is running (job ${running.id}); run an update when it ends`] }
  return { job: { id: jobs.start(mode, undefined).id } }
}
