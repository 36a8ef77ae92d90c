/**
 * Data routes of the web UI (behind the bearer check like the rest of the API):
 * - GET /ui/graph?level=N: the graph viewer's data for the live index (what `export --format html` embeds);
 * - GET /ui/passages?entity=TITLE | ?text_unit=ID: the passages an entity was extracted from (or one cited
 *   passage), with their document's title;
 * - GET /ui/stats: the last index run's stats.json (run time, workflows, model calls and cost).
 */
import { readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Hono } from 'hono'
import { ExportError, RequestError, StorageError } from '../errors.js'
import { liveViewerData } from '../export/index.js'
import type { ViewerData } from '../export/viewer-data.js'
import { DOCUMENTS, ENTITIES, TEXT_UNITS, type RowOf, type TableSchema } from '../model/index.js'
import { unlessAbsent } from '../storage/fs-errors.js'
import { readableIndexDir } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/index.js'
import type { QueryService } from './query-service.js'

/** Passages returned at most; the reply says how many there are. */
const MAX_PASSAGES = 10

export function registerUiData(app: Hono, queries: QueryService): void {
  const graphs = new GraphCache()
  // The published index as readers see it: the folder, or the local copy of the generation published in object storage.
  const outputDir = () => readableIndexDir(queries.config().settings.output_storage.base_dir)

  app.get('/ui/graph', async (c) =>
    c.json(await graphs.get(await outputDir(), queries.config().settings.root, level(c.req.query('level')))),
  )

  app.get('/ui/passages', async (c) => {
    const store = new ParquetTableStore(await outputDir())
    const { entity: title, text_unit: unitId, source } = c.req.query()
    let wanted: Set<string>
    if (unitId !== undefined && unitId !== '') wanted = new Set([unitId])
    else if (source !== undefined && source !== '') wanted = await sourceUnit(store, source)
    else if (title !== undefined && title !== '') {
      const entity = (await readTable(store, ENTITIES)).find((e) => e.title === title)
      if (entity === undefined) throw new RequestError(404, `entity: no entity titled ${JSON.stringify(title)}`)
      wanted = new Set(entity.text_unit_ids)
    } else
      throw new RequestError(
        400,
        'entity, text_unit or source: required (an entity title, a text unit id or a cited source id)',
      )
    const units = (await readTable(store, TEXT_UNITS)).filter((u) => wanted.has(u.id))
    const titles = new Map((await readTable(store, DOCUMENTS)).map((d) => [d.id, d.title]))
    return c.json({
      total: units.length,
      passages: units.slice(0, MAX_PASSAGES).map((u) => ({
        id: u.id,
        human_readable_id: u.human_readable_id,
        document: titles.get(u.document_id) ?? u.document_id,
        text: u.text,
      })),
    })
  })

  app.get('/ui/stats', async (c) => {
    const file = join(await outputDir(), 'stats.json')
    try {
      return c.json({ stats: JSON.parse(await readFile(file, 'utf8')) as unknown })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return c.json({ stats: null })
      throw new StorageError(`cannot read the last run's statistics ${file}`, { path: file, cause: error })
    }
  })
}

function level(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined
  if (!/^\d+$/.test(value)) throw new RequestError(400, 'level: expected a whole number ≥ 0')
  return Number(value)
}

async function readTable<S extends TableSchema>(store: ParquetTableStore, schema: S): Promise<RowOf<S>[]> {
  if (!(await store.has(schema.name)))
    throw new RequestError(404, `the index has no ${schema.name} table yet: index the documents first`)
  return store.read(schema)
}

/**
 * The last graph built, per level, until the index changes: building and laying out a big graph takes
 * seconds, and every run rewrites stats.json last, so its modification time names the index's generation.
 */
class GraphCache {
  private generation = ''
  private readonly byLevel = new Map<string, Promise<ViewerData>>()

  async get(dir: string, root: string, level: number | undefined): Promise<ViewerData> {
    const generation = `${dir}\u0000${await modified(join(dir, 'stats.json'))}`
    if (generation !== this.generation) {
      this.generation = generation
      this.byLevel.clear()
    }
    const key = String(level ?? 'default')
    let data = this.byLevel.get(key)
    if (data === undefined) {
      data = build(dir, `${basename(root)}: knowledge graph`, level)
      this.byLevel.set(key, data)
      // A failure is not cached: the next request tries again (the index may be written meanwhile).
      data.catch(() => this.byLevel.delete(key))
    }
    return data
  }
}

async function build(dir: string, title: string, level: number | undefined): Promise<ViewerData> {
  try {
    return await liveViewerData(dir, title, level)
  } catch (error) {
    // No index yet, or a level the index does not have: the user's situation, not a server fault.
    if (error instanceof StorageError && error.path !== undefined) throw new RequestError(404, error.message)
    if (error instanceof ExportError) throw new RequestError(400, error.message.replace(/^--level/, 'level'))
    throw error
  }
}

/** stats.json's modification time; 'absent' before the first run. Any other failure names the file. */
async function modified(file: string): Promise<string> {
  return unlessAbsent(file, 'read', async () => String((await stat(file)).mtimeMs), 'absent')
}

/** The text unit an answer cites as `Sources 12` (its human-readable id); 404 when the index has none. */
async function sourceUnit(store: ParquetTableStore, source: string): Promise<Set<string>> {
  const unit = (await readTable(store, TEXT_UNITS)).find((u) => String(u.human_readable_id) === source)
  if (unit === undefined)
    throw new RequestError(404, `source: no text unit with human-readable id ${JSON.stringify(source)}`)
  return new Set([unit.id])
}
