import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NLP_ENTITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = `method: fast
completion_models: {}
embedding_models:
  default_embedding_model:
    model_provider: local
    model: hashing-64
    dimensions: 64
vector_store:
  vector_size: 64
input:
  type: csv
global_search:
  completion_model_id: null
`

// Each noun phrase occurs in one row only, so the default min_node_freq (2) would remove every entity.
const CSV = `id,title,text
1,Ferry,The old ferry captain crossed the grey harbour at dawn.
2,Lamp,A worn drive gear stopped the lighthouse lamp.
3,Court,The salvage court heard the insurance claim.
4,Market,Fresh herring sold out at the market quay.
`

describe('offline fast index of a small CSV corpus', () => {
  it('keeps the unpruned graph with a warning naming the prune_graph setting to relax, instead of failing', async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS, 'input/notes.csv': CSV })
    const run = await runCli(['index', '--root', root])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /warning: prune_graph would leave 0 of \d+ entities .* so the graph is kept unpruned; to prune, relax prune_graph\.min_node_freq: 1 \(now 2\) keeps \d+ entities/,
    )
    const entities = await new ParquetTableStore(join(root, 'output')).read(NLP_ENTITIES)
    expect(entities.length).toBeGreaterThan(4)
    const query = await runCliInProcess(['query', 'Who crossed the harbour?', '--root', root, '--method', 'global'])
    expect(query.code, query.stderr).toBe(0)
  }, 60_000)
})
