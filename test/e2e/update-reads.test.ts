/**
 * What an update reads besides the pipeline's own work (issue 42 item 3): planning and the update_*
 * workflows decode only the columns they compare (no texts, reports or descriptions they do not
 * use), and model_replies is read once, not again after every workflow.
 */
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import type { TableSchema } from '../../src/model/schema.js'
import { ParquetTableStore, type ReadOptions } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { addedNameDocument, nameGraphCorpus } from '../support/name-graph-corpus.js'
import { testdir } from '../support/testdir.js'

/** Columns none of planning or the update_* workflows needs: reading them would decode every text again. */
const UNUSED_THERE: Record<string, readonly string[]> = {
  documents: ['text', 'text_unit_ids', 'raw_data', 'creation_date'],
  text_units: ['text', 'covariate_ids'],
  entities: ['frequency', 'degree'],
  relationships: ['id', 'combined_degree'],
  communities: ['id', 'title', 'children', 'relationship_ids', 'text_unit_ids', 'period', 'size'],
  community_reports: ['title', 'summary', 'full_content', 'rank', 'rating_explanation', 'findings'],
}

interface Read {
  phase: string
  table: string
  columns: string[]
}

describe('graphrag update: reads outside the pipeline', () => {
  let llm: FakeLlm
  let root = ''
  const reads: Read[] = []
  const originalRead = ParquetTableStore.prototype.read

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    const corpus = nameGraphCorpus(76, 5)
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\nchunking:\n  type: sentence\n`,
    }
    for (const [d, text] of corpus.documents.entries()) files[`input/doc-${d}.txt`] = text
    root = await testdir(files)
    await runIndex({ root, skipValidation: true })
    await writeFile(join(root, 'input', 'added.txt'), addedNameDocument(corpus, 2).text)
    let phase = 'planning'
    ParquetTableStore.prototype.read = function <S extends TableSchema>(
      this: ParquetTableStore,
      schema: S,
      options?: ReadOptions,
    ) {
      reads.push({ phase, table: schema.name, columns: schema.columns.map((c) => c.name) })
      return originalRead.bind(this)(schema, options)
    }
    const reporter = {
      ...SILENT_REPORTER,
      workflowStart: (name: string) => {
        phase = name
      },
      workflowEnd: () => {
        phase = 'between workflows'
      },
    }
    await runUpdate({ root, skipValidation: true, cache: false, reporter })
  })
  afterAll(async () => {
    ParquetTableStore.prototype.read = originalRead
    await llm?.close()
    await rm(root, { recursive: true, force: true })
  })

  it('reads model_replies once, when the run opens', () => {
    const replies = reads.filter((r) => r.table === 'model_replies')
    expect(replies.map((r) => r.phase)).toEqual(['planning'])
  })

  it('plans and records the changes without decoding columns it does not use', () => {
    const outside = reads.filter((r) => r.phase === 'planning' || r.phase.startsWith('update_'))
    // The update_* workflows and the plan did read (this test would pass vacuously otherwise).
    for (const phase of ['planning', 'update_entities_relationships', 'update_community_reports', 'update_clean_state'])
      expect(outside.some((r) => r.phase === phase)).toBe(true)
    const wasted = outside.flatMap((r) =>
      r.columns.filter((c) => UNUSED_THERE[r.table]?.includes(c)).map((c) => `${r.phase}: ${r.table}.${c}`),
    )
    expect(wasted).toEqual([])
  })

  it("clusters without decoding descriptions or the previous communities' lists", () => {
    // create_communities reads ids, titles and edges: the lists and texts are the bulk of these tables.
    const unused: Record<string, readonly string[]> = {
      entities: ['description', 'text_unit_ids', 'frequency', 'degree'],
      relationships: ['description', 'combined_degree', 'human_readable_id'],
      communities: UNUSED_THERE.communities,
    }
    const clustering = reads.filter((r) => r.phase === 'create_communities')
    for (const table of ['entities', 'relationships', 'communities'])
      expect(clustering.some((r) => r.table === table)).toBe(true)
    const wasted = clustering.flatMap((r) =>
      r.columns.filter((c) => unused[r.table]?.includes(c)).map((c) => `${r.table}.${c}`),
    )
    expect(wasted).toEqual([])
  })

  it('builds the reports without the columns no context, reuse check or report row shows', () => {
    const unused: Record<string, readonly string[]> = {
      communities: ['id', 'title', 'relationship_ids', 'text_unit_ids'],
      community_reports: ['full_content', 'full_content_json'],
      entities: ['type', 'frequency'],
      relationships: ['id', 'weight'],
    }
    const reports = reads.filter((r) => r.phase === 'create_community_reports')
    for (const table of ['communities', 'community_reports', 'entities', 'relationships'])
      expect(reports.some((r) => r.table === table)).toBe(true)
    const wasted = reports.flatMap((r) =>
      r.columns.filter((c) => unused[r.table]?.includes(c)).map((c) => `${r.table}.${c}`),
    )
    expect(wasted).toEqual([])
  })
})
