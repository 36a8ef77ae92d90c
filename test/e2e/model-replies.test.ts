/**
 * Real models' replies through `graphrag index` and `query` (fake LLM over HTTP): a reasoning model
 * whose replies hold entities but no relationship still gets an index that basic search serves, and
 * graph methods say the graph is empty; a model that refuses fails the run after one retry per unit,
 * unless --allow-partial, which lists the lost units and publishes the rest.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const HARBOUR = 'Margit Olsen ran the harbour office at Skerrivik. Every morning she opened the ledger.\n'
const REFUSED = 'The lighthouse keeper wrote a letter that nobody read. REFUSE-THIS-ONE\n'

const firstUser = (messages: ReadonlyArray<{ role: string; content: string }>) =>
  messages.find((m) => m.role === 'user')?.content ?? ''

describe.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)(
  'model replies through the CLI (GRAPHRAG_SLOW_TESTS=1: ~2 min of CLI runs)',
  () => {
    let llm: FakeLlm
    beforeAll(async () => {
      llm = await startFakeLlm({
        responders: [
          ({ kind, messages }) => {
            if (!kind.startsWith('extract_graph')) return undefined
            // Refuses the first request and the retry alike.
            if (firstUser(messages).includes('REFUSE-THIS-ONE')) return "I'm sorry, but I can't help with that."
            if (kind !== 'extract_graph') return kind === 'extract_graph_loop' ? 'N' : '<|COMPLETE|>'

            // A reasoning model: thinking that quotes the template, then entities and no relationship.
            return (
              '<think>\nRecords look like ("entity"<|>ENTITY_NAME<|>ENTITY_TYPE<|>DESCRIPTION).\n</think>\n' +
              '("entity"<|>MARGIT OLSEN<|>PERSON<|>Runs the harbour office)##\n' +
              '("entity"<|>SKERRIVIK<|>GEO<|>Harbour town)\n<|COMPLETE|>'
            )
          },
        ],
      })
    })
    afterAll(async () => {
      await llm?.close()
    })

    const project = (files: Record<string, string>) =>
      testdir({
        'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}input:\n  type: text\nvector_store:\n  vector_size: 1536\n`,
        ...files,
      })

    it('publishes an index without relationships for basic and hybrid search, and graph methods say the graph is empty', async () => {
      const root = await project({ 'input/harbour.txt': HARBOUR })
      const run = await runCli(['index', '--root', root, '--skip-validation'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toMatch(/warning: Graph extraction found 2 entities but no relationships/)
      const store = new ParquetTableStore(join(root, 'output'))
      expect((await store.read(TEXT_UNITS)).length).toBe(1)
      expect((await store.read(RELATIONSHIPS)).length).toBe(0)
      expect((await store.read(ENTITIES)).map((e) => e.title).sort()).toEqual(['MARGIT OLSEN', 'SKERRIVIK'])

      const basic = await runCli(['query', 'Who runs the harbour office?', '--root', root, '--method', 'basic'])
      expect(basic.code, basic.stderr).toBe(0)
      expect(basic.stdout.trim()).not.toBe('')
      const hybrid = await runCli(['query', 'Who runs the harbour office?', '--root', root, '--method', 'hybrid'])
      expect(hybrid.code, hybrid.stderr).toBe(0)
      expect(hybrid.stdout.trim()).not.toBe('')
      for (const method of ['local', 'global', 'drift']) {
        const q = await runCli(['query', 'Who runs the harbour office?', '--root', root, '--method', method])
        expect(`${method}: ${q.stderr}`).toMatch(/graph is empty/)
        expect(q.stderr).not.toMatch(/bug|at \S+\.js:\d+/)
      }
    }, 90_000)

    it('fails the run on a refusal after one retry, or with --allow-partial lists the lost unit and goes on', async () => {
      const root = await project({ 'input/harbour.txt': HARBOUR, 'input/keeper.txt': REFUSED })
      const failed = await runCli(['index', '--root', root, '--skip-validation'])
      expect(failed.code).not.toBe(0)
      expect(failed.stderr).toMatch(/unusable twice \(a refusal: I'm sorry, but I can't help with that\.\)/)
      expect(failed.stderr).toMatch(/--allow-partial/)

      const partial = await runCli(['index', '--root', root, '--skip-validation', '--allow-partial'])
      expect(partial.code, partial.stderr).toBe(0)
      expect(partial.stderr).toMatch(/warning: 1 text unit lost/)
      const units = await new ParquetTableStore(join(root, 'output')).read(TEXT_UNITS)
      expect(units.length).toBe(2)
    }, 90_000)
  },
)
