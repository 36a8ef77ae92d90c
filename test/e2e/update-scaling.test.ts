/**
 * Issue 42 item 3 at a size the default suite can afford: one document added to indexes of 76 and
 * 301 entities (test/support/name-graph-corpus.ts, one chunk per sentence) costs the same extraction
 * calls whatever the index's size, summaries and reports only of what the document touches (the
 * communities holding an entity it names), and embeds only the new and touched texts. The large
 * case (100,000 entities, timed) is bench:update's.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITIES } from '../../src/model/communities.js'
import { COMMUNITY_REPORTS } from '../../src/model/community-reports.js'
import { ENTITIES } from '../../src/model/entities.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { addedNameDocument, nameGraphCorpus } from '../support/name-graph-corpus.js'
import { testdir } from '../support/testdir.js'

/** The added document: three sentences, each naming one existing entity and five new ones. */
const ADDED_SENTENCES = 3

describe('graphrag update: model calls follow what the added document touches, not the index size', () => {
  let llm: FakeLlm
  const roots: string[] = []

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => {
    await llm?.close()
    for (const root of roots) await rm(root, { recursive: true, force: true })
  })

  /** Indexes the corpus of `entities`, adds the document, updates with --no-cache; the update's calls by kind. */
  async function addOne(entities: number) {
    const corpus = nameGraphCorpus(entities, 5)
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\nchunking:\n  type: sentence\n`,
    }
    for (const [d, text] of corpus.documents.entries()) files[`input/doc-${d}.txt`] = text
    const root = await testdir(files)
    roots.push(root)
    await runIndex({ root, skipValidation: true })
    const reportTexts = async () =>
      (await new ParquetTableStore(join(root, 'output')).read(COMMUNITY_REPORTS)).map((r) => r.full_content)
    const before = new Set(await reportTexts())
    const added = addedNameDocument(corpus, ADDED_SENTENCES)
    await writeFile(join(root, 'input', 'added.txt'), added.text)
    const from = llm.requests.length
    await runUpdate({ root, skipValidation: true, cache: false })
    const requests = llm.requests.slice(from)
    const kinds = (prefix: string) => requests.filter((r) => r.kind.startsWith(prefix)).length
    const embedded = requests
      .filter((r) => r.kind === 'embedding')
      .flatMap((r) => (r.body as { input: string[] }).input)
    const tables = new ParquetTableStore(join(root, 'output'))
    // Report texts the update's index holds that the previous one did not (kept reports renumbered included).
    const newReportTexts = [...new Set((await reportTexts()).filter((t) => !before.has(t)))]
    const titleOf = new Map((await tables.read(ENTITIES)).map((e) => [e.id, e.title]))
    const touched = new Set(added.titles)
    const touchedCommunities = (await tables.read(COMMUNITIES)).filter((c) =>
      c.entity_ids.some((id) => touched.has(titleOf.get(id) ?? '')),
    ).length
    // Communities whose members are no previous community's (re-clustering moved members in or out).
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const clustered = stats.workflows.update_communities.summary
    const regrouped = clustered.communities_added + clustered.communities_changed
    return {
      entities: titleOf.size,
      extraction: kinds('extract_graph'),
      summaries: kinds('summarize'),
      reports: kinds('community_report'),
      other: requests.filter((r) => !/^(extract_graph|summarize|community_report|embedding|models)/.test(r.kind)),
      embedded,
      newReportTexts,
      touchedCommunities,
      regrouped,
      touched: touched.size,
    }
  }

  it('costs the same extraction and at most the touched communities’ reports at 76 and 301 entities', async () => {
    const small = await addOne(76)
    const large = await addOne(301)
    const seen = JSON.stringify({
      small: { ...small, embedded: small.embedded.length, newReportTexts: small.newReportTexts.length },
      large: { ...large, embedded: large.embedded.length, newReportTexts: large.newReportTexts.length },
    })
    expect(small.entities, seen).toBe(76 + 5 * ADDED_SENTENCES)
    expect(large.entities, seen).toBe(301 + 5 * ADDED_SENTENCES)
    for (const run of [small, large]) {
      // One extraction and one gleaning ("continue") call per new chunk, nothing for the old ones.
      expect(run.extraction, seen).toBe(2 * ADDED_SENTENCES)
      expect(run.summaries, seen).toBeLessThanOrEqual(run.touched)
      expect(run.reports, seen).toBeGreaterThan(0)
      expect(run.reports, seen).toBeLessThanOrEqual(run.touchedCommunities + run.regrouped)
      expect(run.other, seen).toEqual([])
      // Text units and entity descriptions: the new and touched ones only. (Reports kept with
      // renumbered citations read differently, so their full_content is embedded again: docs/update.md.)
      const unitsAndEntities = run.embedded.filter((t) => !t.startsWith('# '))
      expect(unitsAndEntities.length, seen).toBeLessThanOrEqual(ADDED_SENTENCES + run.touched)
      // Reports: exactly the texts no previous report had. A report kept with renumbered citations is
      // a new text (the reference embeds full_content as it reads, citations included), so it is
      // embedded as a full index would embed it; a report whose text is unchanged keeps its vector.
      const reportsEmbedded = [...new Set(run.embedded.filter((t) => t.startsWith('# ')))]
      expect(reportsEmbedded.sort(), seen).toEqual([...run.newReportTexts].sort())
    }
    // Four times the index, not four times the calls: the touched communities grow only with the
    // hierarchy's depth (measured: 11 report calls at 76 entities, 16 at 301).
    expect(large.reports + large.summaries, seen).toBeLessThan(2 * (small.reports + small.summaries))
  }, 120_000)
})
