/**
 * The settings file of the Microsoft GraphRAG design (seed 004, version 2 style), through the built
 * CLI: refused with one line per renamed key; once renamed, `index --dry-run` does not call the
 * settings valid while `default_chat_model` names no model, and does once the model is defined.
 */
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

const DESIGN_EXAMPLE = `chunks:
  size: 1200
  overlap: 100
  group_by_columns: [id]
extract_graph:
  model_id: default_chat_model
  entity_types: [organization, person, geo, event]
  max_gleanings: 1
cluster_graph:
  max_cluster_size: 10
  use_lcc: true
  seed: 42
community_reports:
  model_id: default_chat_model
  max_length: 2000
  max_input_length: 8000
embed_text:
  model_id: default_embedding_model
`

/** The example with every key renamed as the refusal says. */
const RENAMED = DESIGN_EXAMPLE.replace('chunks:', 'chunking:')
  .replace('  group_by_columns: [id]\n', '')
  .replace(/ {2}model_id: default_chat_model/g, '  completion_model_id: default_chat_model')
  .replace('  model_id: default_embedding_model', '  embedding_model_id: default_embedding_model')

const MODELS = `completion_models:
  default_chat_model:
    model_provider: openai
    model: gpt-4.1-mini
    api_key: sk-test
embedding_models:
  default_embedding_model:
    model_provider: local
    model: hashing-384
    dimensions: 384
vector_store:
  vector_size: 384
`

const project = (settings: string) =>
  testdir({ 'settings.yaml': settings, 'input/a.txt': 'Marta Quill keeps the harbour records.' })

describe("the seed design's v2 settings file", () => {
  it('is refused with one line per key to rename', async () => {
    const run = await runCli(['index', '--root', await project(DESIGN_EXAMPLE), '--dry-run'])
    expect(run.code).toBe(1)
    for (const line of [
      'chunks → chunking',
      'extract_graph.model_id → extract_graph.completion_model_id',
      'community_reports.model_id → community_reports.completion_model_id',
      'embed_text.model_id → embed_text.embedding_model_id',
    ])
      expect(run.stderr).toContain(`  ${line}\n`)
  })

  it('renamed, index --dry-run names every key whose model id names no model instead of saying valid', async () => {
    const run = await runCliInProcess(['index', '--root', await project(RENAMED), '--dry-run', '--skip-validation'])
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('(valid')
    expect(run.stderr).toContain(
      'extract_graph.completion_model_id, community_reports.completion_model_id: names no model: no completion_models entry "default_chat_model" (configured: none; add completion_models.default_chat_model or name one of those)',
    )
    expect(run.stderr).toContain('no embedding_models entry "default_embedding_model"')
  })

  it('renamed and with the models defined, the dry run calls the settings valid', async () => {
    // A workflow the design's file leaves at its default model id needs that id too.
    const summaries = 'summarize_descriptions:\n  completion_model_id: default_chat_model\n'
    const partial = await runCliInProcess([
      'index',
      '--root',
      await project(`${RENAMED}${MODELS}`),
      '--dry-run',
      '--skip-validation',
    ])
    expect(partial.code).toBe(1)
    expect(partial.stderr).toMatch(
      /: summarize_descriptions\.completion_model_id(, [a-z_.]+)*: names no model: no completion_models entry "default_completion_model" \(configured: default_chat_model;/,
    )
    const run = await runCliInProcess([
      'index',
      '--root',
      await project(`${RENAMED}${summaries}${MODELS}`),
      '--dry-run',
      '--skip-validation',
    ])
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/Settings: .*settings\.yaml \(valid/)
    expect(run.code).toBe(0)
  })
})
