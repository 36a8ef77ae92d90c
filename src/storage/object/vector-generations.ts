/**
 * LanceDB at an az:// or s3:// `vector_store.db_uri` (outside the index's generations) versioned
 * with them: a run that embeds writes its tables under `<db_uri>/.generations/<id>/`, and the
 * generation it publishes names that folder in `vectors.json`. Readers open the folder the
 * published generation names, so the tables and the vectors they read come from the same run: a
 * run killed during or after its embeddings leaves the published vectors as they were (they were
 * once replaced in place, ahead of the tables). Older folders are deleted after a publish, keeping
 * the new one and the one it replaced, as generations are.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../atomic-write.js'
import { parseJson } from '../fs-errors.js'
import { collectGenerations, newGenerationId } from './generations.js'
import { remoteLocation, type StorageSettings } from './remote.js'

/** The file of a generation naming its vectors' folder. */
const VECTORS_FILE = 'vectors.json'

export function isObjectStoreUri(uri: string): boolean {
  return /^(az|s3):\/\//.test(uri)
}

/** The vectors' folder generation `dir` names (undefined: none, e.g. an index from before this scheme). */
export async function vectorsOf(dir: string): Promise<string | undefined> {
  let text: string
  try {
    text = await readFile(join(dir, VECTORS_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const uri = parseJson<{ db_uri?: unknown }>(text)?.db_uri
  return typeof uri === 'string' ? uri : undefined
}

/**
 * The folder of vectors for the run working in `dirs.work`: the one this work generation began
 * (a resumed run keeps the tables it wrote); else, for a run that embeds, a new folder; a run that
 * does not embed keeps the published folder (its vectors still match its tables).
 */
export async function vectorGenerationFor(
  dirs: { work: string; published: string },
  dbUri: string,
  options: { resumed: boolean; embeds: boolean },
): Promise<string> {
  const named = await vectorsOf(dirs.work)
  const published = await vectorsOf(dirs.published)
  // A new work generation starts as a copy of the published one: its vectors.json names the published folder.
  const own = options.resumed && named !== published && named?.startsWith(`${dbUri}/.generations/`) ? named : undefined
  if (own !== undefined) return own
  if (!options.embeds) return published ?? dbUri
  const uri = `${dbUri}/.generations/${newGenerationId()}`
  await writeFileAtomic(join(dirs.work, VECTORS_FILE), `${JSON.stringify({ db_uri: uri })}\n`)
  return uri
}

/** Deletes the vectors' folders under `dbUri` other than those in `keep` (the new one and the one it replaced). */
export async function collectVectorGenerations(
  dbUri: string,
  output: StorageSettings,
  keep: ReadonlyArray<string | undefined>,
): Promise<void> {
  const match = /^(?:az|s3):\/\/([^/]+)\/?(.*)$/.exec(dbUri)
  if (match === null) return
  const [, container = '', path = ''] = match
  const spec = { ...output, base_dir: path, container_name: container, bucket: container }
  const ids = keep.flatMap((uri) => (uri?.startsWith(`${dbUri}/.generations/`) ? [uri.split('/').pop()!] : []))
  await collectGenerations(remoteLocation('vector_store.db_uri', spec), ids)
}
