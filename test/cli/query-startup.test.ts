// `graphrag query` loads what its method needs and nothing else (issue 32 §2): an offline basic or
// local query must not load a provider SDK (the offline model calls none), the other search
// methods, the server, the indexer, a second (ESM) copy of apache-arrow beside LanceDB's,
// tiktoken's wasm (the tokenizer is src/llm/bpe over a prebuilt rank table) or parquet-wasm (the
// query path reads its tables with the plain-JavaScript reader, src/storage/parquet-js.ts).
// Its answer must not change with how modules are loaded: the --json output of each method on a
// small offline index equals the output recorded before start-up was made lazy
// (test/fixtures/query-startup/*.json; see there how to re-record after a deliberate change).
// `npm run bench:startup` has the timings.
import { spawnSync } from 'node:child_process'
import { copyFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { moduleTracer, type TraceCli } from '../support/module-trace.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'query-startup')
const QUESTION = 'Who paid for the new ferry?'

/** Packages an offline query never needs. */
const NOT_NEEDED =
  /^\/node_modules\/(openai|@ai-sdk|@modelcontextprotocol|hono|@hono|ora|unpdf|mammoth|read-excel-file|htmlparser2|graphology[^/]*|wink-[^/]+|fflate|csv-parse|csv-stringify|@azure|@aws-sdk|@smithy|tiktoken|parquet-wasm)\//
const VENDORED = /^\/node_modules\/(yaml|hyparquet|commander|jsonrepair)\//
// apache-arrow is loaded once, as the CommonJS build LanceDB requires (src/storage/arrow.ts).
const ESM_ARROW = /^\/node_modules\/apache-arrow\/.*\.mjs$/
// The cloud SDKs load on a remote store's first request (src/storage/object/lazy-store.ts), never for a local project.

/**
 * Our modules a method must not load: the other methods, hybrid ranking, the server, the indexer,
 * and the machinery of an index in object storage (this one is a local folder).
 */
function foreignModules(method: 'basic' | 'local'): RegExp {
  const otherSearches = ['global', 'drift', 'graph', 'hybrid', method === 'basic' ? 'local' : 'basic'].join('|')
  return new RegExp(
    `^/dist/(server|index|export|prompt-tune|ui|query/search/(${otherSearches})\\.js|query/hybrid/(tables|ranking|signals|context)\\.js|storage/object/(remote-index|folder-sync|object-lock|work-state)\\.js)`,
  )
}

let trace: TraceCli
let root: string

describe('graphrag query on an offline index', () => {
  beforeAll(async () => {
    trace = await moduleTracer()
    root = await testdir()
    await mkdir(join(root, 'input'))
    await copyFile(join(DEMO, 'settings.yaml'), join(root, 'settings.yaml'))
    await copyFile(join(DEMO, 'input', '05-the-lantern-festival.txt'), join(root, 'input', 'festival.txt'))
    const index = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'index', '--root', root], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    })
    expect(index.status, index.stderr).toBe(0)
  }, 120_000)

  it.each(['basic', 'local'] as const)(
    '--method %s loads only what it needs and answers as before',
    async (method) => {
      const run = trace(['query', QUESTION, '--method', method, '--root', root, '--json'])
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout).toBe(await readFile(join(FIXTURES, `${method}.json`), 'utf8'))

      expect(run.loaded.filter((url) => NOT_NEEDED.test(url))).toEqual([])
      expect(run.loaded.filter((url) => ESM_ARROW.test(url))).toEqual([])
      expect(run.loaded.filter((url) => foreignModules(method).test(url))).toEqual([])
      // What it does need, so the filters above cannot pass by tracing nothing.
      expect(run.loaded).toContain(`/dist/query/search/${method}.js`)
      expect(run.loaded.some((url) => url.startsWith('/node_modules/@lancedb/lancedb/'))).toBe(true)
      expect(run.loaded).toContain('/dist/llm/bpe/encoder.js')
      expect(run.loaded).toContain('/dist/storage/parquet-js.js')
      // Vector search runs on its own thread (src/storage/vector-thread.ts), started with the command.
      expect(run.loaded).toContain('/dist/storage/vector-thread-worker.js')
      // Packages of many small files load as the one-file bundles of dist/vendor (src/vendor/README.md).
      expect(run.loaded).toContain('/dist/vendor/hyparquet.js')
      expect(run.loaded).toContain('/dist/vendor/yaml.js')
      expect(run.loaded.filter((url) => VENDORED.test(url))).toEqual([])
    },
    60_000,
  )

  it('--method hybrid reads document titles without parquet-wasm and still labels its sources by file', () => {
    const run = trace(['query', QUESTION, '--method', 'hybrid', '--root', root, '--json'])
    expect(run.status, run.stderr).toBe(0)
    // The titles are read as two columns with the JS reader: documents' texts and raw_data (which
    // only parquet-wasm decodes) are not needed for a label.
    expect(run.loaded.filter((url) => url.startsWith('/node_modules/parquet-wasm/'))).toEqual([])
    expect(run.loaded).toContain('/dist/query/search/hybrid.js')
    expect(run.loaded).toContain('/dist/vendor/hyparquet.js')
    const { sources } = JSON.parse(run.stdout) as { sources: Array<{ kind: string; title: string | null }> }
    const passages = sources.filter((source) => source.kind === 'text_unit')
    expect(passages.length).toBeGreaterThan(0)
    expect(new Set(passages.map((source) => source.title))).toEqual(new Set(['festival.txt']))
  }, 60_000)
})
