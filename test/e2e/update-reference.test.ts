/**
 * `graphrag update` on an index Microsoft GraphRAG built (../shared/reference/msgr-v3-dulce): it has
 * no model_replies table, so the first update recomputes what the cache cannot answer and says so
 * once; the next update reuses the replies that update recorded.
 */
import { cpSync, readFileSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { lanceRowCounts } from '../support/index-files.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

describeShared('graphrag update on an index built by Microsoft GraphRAG', () => {
  let llm: FakeLlm
  let root: string
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`,
      'input/dulce.txt': readFileSync(sharedPath('corpora', 'dulce-excerpt.txt'), 'utf8'),
    })
    cpSync(sharedPath('reference', 'msgr-v3-dulce'), join(root, 'output'), { recursive: true })
  })
  afterAll(async () => llm?.close())

  it('updates it, saying once that nothing can be reused from the index itself; the next update reuses its own replies', async () => {
    await writeFile(
      join(root, 'input', 'briefing.txt'),
      'Agent Alex Mercer briefed the Paranormal Military Squad at Dulce Base.\n',
    )
    const first = await runCli(['update', '--root', root, '--skip-validation'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr.match(/has no model_replies table/g)).toHaveLength(1)
    // That one notice covers the vectors too (they cannot be matched to their texts either).
    expect(first.stderr).not.toContain('no embedding_keys table')
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.update.added).toEqual(['briefing.txt'])
    expect(stats.update.backup).toContain('update_output')
    const counts = await lanceRowCounts(join(root, 'output', 'lancedb'))
    expect(counts.text_unit_text).toBe(stats.workflows.create_final_text_units.rows.text_units)

    await rm(join(root, 'cache'), { recursive: true })
    await writeFile(
      join(root, 'input', 'debrief.txt'),
      'Taylor Cruz debriefed Jordan Hayes after the signal from Dulce Base.\n',
    )
    const before = llm.requests.length
    const second = await runCliInProcess(['update', '--root', root, '--skip-validation'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).not.toContain('has no model_replies table')
    expect(llm.requests.slice(before).filter((r) => r.kind === 'extract_graph')).toHaveLength(1)
    // The first update recorded embedding_keys: the second takes unchanged vectors back from LanceDB.
    const embedded = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')).workflows
      .generate_text_embeddings.summary
    expect(embedded.text_unit_text_reused).toBeGreaterThan(0)
  }, 240_000)
})
