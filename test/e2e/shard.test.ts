/**
 * Sharded runs through the CLI and the fake model server: three `index --shard I/3` processes run
 * at once over one project (one shared cache; again with `--shard auto` and the variables of Cloud
 * Run, Kubernetes and AWS Batch), then `index` without --shard makes no extraction, claim,
 * typed-edge or text-unit embedding call, says per workflow which calls the cache answered, and
 * writes the tables an unsharded index of a copy of the project writes; the same for
 * `update --shard`. Slices are disjoint and cover every text unit.
 */
import { cp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { parseShard } from '../../src/index/run/shard.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type PromptKind } from '../support/fake-llm/index.js'
import { comparableTables } from '../support/index-files.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { TEXT_UNITS } from '../../src/model/text-units.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')

/** The prompts whose calls a shard makes ahead of the full run. */
const SHARDED_KINDS: ReadonlySet<PromptKind | 'embedding' | 'models'> = new Set([
  'extract_graph',
  'extract_graph_continue',
  'extract_graph_loop',
  'extract_claims',
  'extract_claims_continue',
  'extract_claims_loop',
  'chunk_graph',
])

describe('parseShard', () => {
  it('reads I/N and rejects what is not a shard of a run, naming the flag', () => {
    expect(parseShard('2/3')).toMatchObject({ index: 2, count: 3 })
    expect(parseShard(' 1 / 1 ')).toMatchObject({ index: 1, count: 1 })
    for (const bad of ['0/3', '4/3', '3', '1/0', '-1/2', '1.5/3', 'a/b', '1/1001'])
      expect(() => parseShard(bad), bad).toThrow(/^--shard: expected I\/N/)
  })

  it('gives disjoint slices that together hold every item once, in list order', () => {
    const items = Array.from({ length: 11 }, (_, i) => i)
    const slices = [1, 2, 3].map((i) => parseShard(`${i}/3`).select(items))
    expect(slices).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7, 10],
      [2, 5, 8],
    ])
  })
})

/**
 * How the three shard processes are told their slice: `--shard I/3`, or `--shard auto` with the
 * variables of one platform (the mapping of every platform is unit-tested in shard-platforms.test.ts).
 */
const SLICINGS = [
  { name: '--shard I/3', args: (i: number) => ['--shard', `${i}/3`], env: (_i: number) => ({}), says: [] },
  {
    name: '--shard auto on Google Cloud Run Jobs',
    args: (_i: number) => ['--shard', 'auto'],
    env: (i: number) => ({ CLOUD_RUN_TASK_INDEX: String(i - 1), CLOUD_RUN_TASK_COUNT: '3' }),
    says: [1, 2, 3].map((i) => `--shard auto: shard ${i}/3 (CLOUD_RUN_TASK_INDEX=${i - 1}, CLOUD_RUN_TASK_COUNT=3)`),
  },
  {
    name: '--shard auto on a Kubernetes Indexed Job',
    args: (_i: number) => ['--shard', 'auto'],
    env: (i: number) => ({ JOB_COMPLETION_INDEX: String(i - 1), GRAPHRAG_SHARD_COUNT: '3' }),
    says: [1, 2, 3].map((i) => `--shard auto: shard ${i}/3 (JOB_COMPLETION_INDEX=${i - 1}, GRAPHRAG_SHARD_COUNT=3)`),
  },
  {
    name: '--shard auto on an AWS Batch array job',
    args: (_i: number) => ['--shard', 'auto'],
    env: (i: number) => ({ AWS_BATCH_JOB_ARRAY_INDEX: String(i - 1), AWS_BATCH_JOB_ARRAY_SIZE: '3' }),
    says: [1, 2, 3].map(
      (i) => `--shard auto: shard ${i}/3 (AWS_BATCH_JOB_ARRAY_INDEX=${i - 1}, AWS_BATCH_JOB_ARRAY_SIZE=3)`,
    ),
  },
]
/** The default suite runs one slicing by flag and one by platform variables; the slow drills run all. */
const RUN_SLICINGS = process.env.GRAPHRAG_SLOW_TESTS ? SLICINGS : SLICINGS.slice(0, 2)

/** The texts of the embedding requests among `requests`. */
function embeddedTexts(requests: ReadonlyArray<{ kind: string; body: unknown }>): string[] {
  return requests
    .filter((r) => r.kind === 'embedding')
    .flatMap((r) => {
      const input = (r.body as { input?: unknown }).input
      return Array.isArray(input) ? input.filter((t): t is string => typeof t === 'string') : []
    })
}

describe('graphrag index|update --shard', () => {
  let llm: FakeLlm
  let sharded: string
  /** The project of each --shard auto slicing, by its name. */
  const autoRoots = new Map<string, string>()
  let whole: string
  const settings = () =>
    [
      fakeModelSettingsYaml(llm.baseUrl),
      'extract_graph:\n  max_gleanings: 1',
      'extract_claims:\n  enabled: true',
      'chunk_graph:\n  llm_edges: true\n  batch_size: 3',
      'vector_store:\n  vector_size: 8',
      '',
    ].join('\n')
  const shardedCalls = (from: number) => llm.requests.slice(from).filter((r) => SHARDED_KINDS.has(r.kind))
  const cli = (root: string, args: string[], env: Record<string, string> = {}) =>
    runCli([...args, '--root', root, '--skip-validation'], { env })
  /** One run at a time after the shards: the same command in process (runCliInProcess: same main() and output). */
  const cliInProcess = (root: string, args: string[]) => runCliInProcess([...args, '--root', root, '--skip-validation'])

  async function addDocuments(root: string, names: readonly string[]): Promise<void> {
    for (const name of names) await cp(join(CORPUS, name), join(root, 'input', name))
  }

  /** The unsharded index both slicings are compared with, made once: its sharded calls and tables. */
  let unsharded: Promise<{ calls: number; tables: unknown }> | undefined
  const unshardedIndex = () =>
    (unsharded ??= (async () => {
      const from = llm.requests.length
      // In process: only its calls and tables are compared (the sharded runs are the CLI under test).
      await runIndex({ root: whole, skipValidation: true })
      return { calls: shardedCalls(from).length, tables: await comparableTables(join(whole, 'output')) }
    })())

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    sharded = await testdir({ 'settings.yaml': settings() })
    for (const slicing of RUN_SLICINGS.slice(1))
      autoRoots.set(slicing.name, await testdir({ 'settings.yaml': settings() }))
    whole = await testdir({ 'settings.yaml': settings() })
    const initial = (await readdir(CORPUS)).sort().slice(0, 4)
    for (const root of [sharded, ...autoRoots.values(), whole]) await addDocuments(root, initial)
  })

  afterAll(async () => {
    await llm?.close()
    for (const root of [sharded, ...autoRoots.values(), whole])
      if (root !== undefined) await rm(root, { recursive: true, force: true })
  })

  it.each(RUN_SLICINGS)(
    'three shards at once ($name), then a final index with no extraction call, equal an unsharded index',
    async (slicing) => {
      const root = autoRoots.get(slicing.name) ?? sharded
      const before = llm.requests.length
      const shards = await Promise.all([1, 2, 3].map((i) => cli(root, ['index', ...slicing.args(i)], slicing.env(i))))
      for (const [i, shard] of shards.entries()) {
        expect(shard.code, shard.stderr).toBe(0)
        expect(shard.stdout).toMatch(
          new RegExp(
            `^shard ${i + 1}/3: model work for \\d+ of \\d+ text units \\(extract_graph, extract_covariates, generate_text_embeddings, create_chunk_graph\\)`,
            'm',
          ),
        )
        expect(shard.stdout).toContain('run graphrag index without --shard')
        expect(shard.stdout).toContain(slicing.says[i] ?? '')
      }
      // A shard publishes nothing.
      await expect(readdir(join(root, 'output'))).rejects.toThrow()
      const inShards = shardedCalls(before).length
      expect(inShards).toBeGreaterThan(0)

      const finalFrom = llm.requests.length
      const final = await cliInProcess(root, ['index'])
      expect(final.code, final.stderr).toBe(0)
      expect(shardedCalls(finalFrom)).toEqual([])
      // The shards embedded every text unit; the final run embeds only what needs the whole corpus.
      const unitTexts = (await new ParquetTableStore(join(root, 'output')).read(TEXT_UNITS)).map((u) => u.text)
      const byShards = new Set(embeddedTexts(llm.requests.slice(before, finalFrom)))
      expect(unitTexts.filter((t) => !byShards.has(t))).toEqual([])
      const finalTexts = new Set(embeddedTexts(llm.requests.slice(finalFrom)))
      expect(unitTexts.filter((t) => finalTexts.has(t))).toEqual([])
      expect(finalTexts.size).toBeGreaterThan(0)
      // The summary says which calls the shards made (answered by the cache) and which this run made.
      expect(final.stderr).toMatch(/^ {2}extract_covariates: +0 made here, [1-9]\d* from the cache$/m)
      expect(final.stderr).toMatch(/^ {2}create_community_reports: +[1-9]\d* made here, 0 from the cache$/m)

      const whole = await unshardedIndex()
      // Each call was made once, by one shard: no slice overlapped another.
      expect(whole.calls).toBe(inShards)
      expect(await comparableTables(join(root, 'output'))).toEqual(whole.tables)
    },
    240_000,
  )

  // An update adds two more CLI runs per project: a slow drill (GRAPHRAG_SLOW_TESTS=1).
  it.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)(
    'update --shard: two shards, then a final update with no extraction call, equal an unsharded update',
    async () => {
      const added = (await readdir(CORPUS)).sort().slice(4, 6)
      await addDocuments(sharded, added)
      await addDocuments(whole, added)
      const unitTexts = async () =>
        (await new ParquetTableStore(join(sharded, 'output')).read(TEXT_UNITS)).map((u) => u.text)
      const earlier = new Set(await unitTexts())
      // Without the cache the earlier units' vectors are in no cache (model_replies keeps no vector):
      // a shard that embedded them would ask the server.
      await rm(join(sharded, 'cache'), { recursive: true, force: true })
      const before = llm.requests.length
      const shards = await Promise.all([1, 2].map((i) => cli(sharded, ['update', '--shard', `${i}/2`])))
      for (const shard of shards) expect(shard.code, shard.stderr).toBe(0)
      expect(shards[0]!.stdout).toContain('run graphrag update without --shard')
      const inShards = shardedCalls(before).length
      expect(inShards).toBeGreaterThan(0)

      const finalFrom = llm.requests.length
      // The shards embedded the new units only: the update takes back the vectors of the others.
      const byShards = new Set(embeddedTexts(llm.requests.slice(before, finalFrom)))
      expect([...earlier].filter((t) => byShards.has(t))).toEqual([])
      const final = await cliInProcess(sharded, ['update'])
      expect(final.code, final.stderr).toBe(0)
      expect(shardedCalls(finalFrom)).toEqual([])
      const now = await unitTexts()
      expect(now.filter((t) => !earlier.has(t) && !byShards.has(t))).toEqual([])
      const finalTexts = new Set(embeddedTexts(llm.requests.slice(finalFrom)))
      expect(now.filter((t) => finalTexts.has(t))).toEqual([])

      const wholeFrom = llm.requests.length
      const unsharded = await cliInProcess(whole, ['update'])
      expect(unsharded.code, unsharded.stderr).toBe(0)
      expect(shardedCalls(wholeFrom)).toHaveLength(inShards)
      expect(await comparableTables(join(sharded, 'output'))).toEqual(await comparableTables(join(whole, 'output')))
    },
    240_000,
  )

  it('refuses a cache the final run cannot read, before any model call', async () => {
    const root = await testdir({
      'settings.yaml': `${settings()}cache:\n  type: memory\n`,
      'input/a.txt': 'A short text.',
    })
    try {
      const from = llm.requests.length
      const result = await cliInProcess(root, ['index', '--shard', '1/2'])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(
        /cache\.type is memory; shards hand their model replies to the final run through the cache/,
      )
      expect(result.stderr).not.toMatch(/looks like a bug/)
      expect(llm.requests.length).toBe(from)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
