import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NLP_ENTITIES } from '../../src/model/index.js'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = `method: fast
completion_models: {}
embedding_models:
  default_embedding_model:
    model_provider: local
    model: hashing
workflows: [load_input_documents, create_base_text_units, extract_graph_nlp]
`

// README ("Where we differ"): a user who needs the reference's noun phrases puts them in the noun-phrase cache.
describe('phrases of another tagger through the extract_noun_phrases cache', () => {
  it('are used as they are, under the key the log names', async () => {
    const text = 'The harbour master spoke with the ferry captain about the winter storm.'
    const root = await testdir({ 'settings.yaml': SETTINGS, 'input/a.txt': text })
    const first = await runCli(['index', '--root', root])
    expect(first.code, first.stderr).toBe(0)
    const log = await readFile(join(root, 'logs', 'indexing-engine.log'), 'utf8')
    const suffix = /key = SHA-512 of text unit text \+ "([^"]+)"/.exec(log)?.[1]
    expect(suffix).toBeDefined()
    const key = createHash('sha512')
      .update(text + suffix!, 'utf8')
      .digest('hex')
    const dir = join(root, 'cache', 'extract_noun_phrases')
    const cached = await keyValueStoreAt(join(root, 'cache')).child('extract_noun_phrases').get(key)
    expect(JSON.parse(cached!)).toContain('FERRY CAPTAIN')
    // Written the way the reference (and versions before cache packs) write an entry: a file per key.
    await writeFile(
      join(dir, key),
      JSON.stringify(['HARBOUR MASTER', 'FERRY CAPTAIN', 'WINTER STORM', 'TEXTBLOB PHRASE']),
    )
    const second = await runCliInProcess(['index', '--root', root, '--no-resume'])
    expect(second.code, second.stderr).toBe(0)
    const entities = await new ParquetTableStore(join(root, 'output')).read(NLP_ENTITIES)
    expect(entities.map((e) => e.title).sort()).toEqual([
      'FERRY CAPTAIN',
      'HARBOUR MASTER',
      'TEXTBLOB PHRASE',
      'WINTER STORM',
    ])
  })
})
