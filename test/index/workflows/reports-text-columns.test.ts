// create_community_reports_text's offline writer takes the relationships from a column read (rows made
// from codes): its reports must be the ones the writer makes from the rows the row reader decodes.
import { expect, it } from 'vitest'
import { finalizeReports } from '../../../src/index/operations/community-reports/render.js'
import { writeExtractiveReports } from '../../../src/index/operations/extractive-report/index.js'
import { createCommunityReportsText } from '../../../src/index/workflows/create_community_reports_text.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'

describeShared('create_community_reports_text (offline) on the reference index', () => {
  it('writes the reports the writer makes from the decoded relationship rows', async () => {
    const reference = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
    const t = await createTestContext()
    for (const schema of [ENTITIES, RELATIONSHIPS, COMMUNITIES, TEXT_UNITS])
      await t.tables.write(schema, await reference.read(schema))
    await createCommunityReportsText.run(t.ctx)
    const communities = await reference.read(COMMUNITIES)
    const drafts = writeExtractiveReports(
      {
        communities,
        entities: await reference.read(ENTITIES),
        relationships: await reference.read(RELATIONSHIPS),
        textUnits: await reference.read(TEXT_UNITS),
      },
      { wordDelimiter: t.settings.extract_graph_nlp.text_analyzer.word_delimiter },
    )
    const written = await t.tables.read(COMMUNITY_REPORTS)
    expect(written.length).toBe(communities.length)
    expect(written).toEqual(finalizeReports(drafts, communities))
  })
})
