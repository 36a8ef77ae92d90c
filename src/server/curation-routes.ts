/**
 * POST /graph/entities/merge, PATCH /graph/entities/{title}, DELETE /graph/entities/{title},
 * POST /graph/relationships, DELETE /graph/relationships/{source}/{target}: edits of
 * the graph written as curation.yaml rules (docs/entity-resolution.md), as `graphrag curate` writes
 * them. `?update=true` starts an update job that applies them (else `graphrag update` or POST /index).
 */
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import type { LoadedConfig } from '../config/index.js'
import { InputError, RequestError } from '../errors.js'
import { addCurationRule, type CurationRule } from '../index/run/curation-edit.js'
import type { IndexJobs } from './index-jobs.js'
import { jsonWith, nonEmptyString } from './requests.js'

interface CurationParts {
  jobs: IndexJobs
  config: () => LoadedConfig
}

export const MERGE = z.strictObject({ from: nonEmptyString(), into: nonEmptyString() })
export const PATCH = z
  .strictObject({ title: nonEmptyString().optional(), type: nonEmptyString().optional() })
  .refine((b) => b.title !== undefined || b.type !== undefined, { error: 'expected title (rename) or type' })

export const RELATE = z.strictObject({
  source: nonEmptyString(),
  target: nonEmptyString(),
  description: nonEmptyString(),
  weight: z.number().positive().finite().optional(),
})

export function registerCurationRoutes(app: Hono, parts: CurationParts): void {
  app.post('/graph/entities/merge', jsonWith(MERGE), async (c) => {
    const { from, into } = c.req.valid('json')
    return reply(c, parts, [{ action: 'merge', entity: from, into }])
  })
  app.patch('/graph/entities/:title', jsonWith(PATCH), async (c) => {
    const entity = c.req.param('title')
    const { title, type } = c.req.valid('json')
    // The type is set first, under the name the caller knows, then the entity is renamed.
    const rules: CurationRule[] = [
      ...(type === undefined ? [] : [{ action: 'set_type' as const, entity, type }]),
      ...(title === undefined ? [] : [{ action: 'rename' as const, entity, to: title }]),
    ]
    return reply(c, parts, rules)
  })
  app.delete('/graph/entities/:title', async (c) =>
    reply(c, parts, [{ action: 'delete', entity: c.req.param('title') }]),
  )
  app.post('/graph/relationships', jsonWith(RELATE), async (c) =>
    reply(c, parts, [{ action: 'add_relationship', ...c.req.valid('json') }]),
  )
  app.delete('/graph/relationships/:source/:target', async (c) =>
    reply(c, parts, [{ action: 'delete_relationship', source: c.req.param('source'), target: c.req.param('target') }]),
  )
}

/** Writes the rules (an unknown entity is a 404 and writes nothing), then starts an update when asked. */
async function reply(c: Context, parts: CurationParts, rules: readonly CurationRule[]): Promise<Response> {
  const update = c.req.query('update')
  if (update !== undefined && update !== 'true' && update !== 'false')
    throw new RequestError(400, 'update: expected true or false')
  const { settings } = parts.config()
  const written: CurationRule[] = []
  for (const rule of rules) {
    try {
      written.push((await addCurationRule(settings, rule, 'http', new Date())).rule)
    } catch (error) {
      if (error instanceof InputError) throw new RequestError(404, error.message)
      throw error
    }
  }
  return c.json(
    { rules: written, ...(update === 'true' ? startUpdate(parts.jobs) : { apply: 'POST /index {"mode":"update"}' }) },
    201,
  )
}

function startUpdate(jobs: IndexJobs): { job?: { id: string }; warnings?: string[] } {
  const running = jobs.running()
  if (running !== undefined)
    return { warnings: [`an index job is running (job ${running.id}); run an update when it ends`] }
  return { job: { id: jobs.start('update', undefined).id } }
}
