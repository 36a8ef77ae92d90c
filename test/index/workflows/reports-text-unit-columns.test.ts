// create_community_reports_text reads only the text units' id, number and text: on a dense corpus the
// units' entity and relationship id lists are most of the table (642 MB at 30 MB) and decoding them
// took minutes. A text_units table holding only those three columns must give the same reports.
import { expect, it } from 'vitest'
import { createCommunityReportsText } from '../../../src/index/workflows/create_community_reports_text.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../../src/model/index.js'
import { pickColumns } from '../../../src/model/schema.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNIT_TEXT = pickColumns(TEXT_UNITS, ['id', 'human_readable_id', 'text'])

describeShared('create_community_reports_text (offline) reads three text-unit columns', () => {
  it('writes the same reports from a text_units table without the id lists', async () => {
    const reference = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
    const whole = await createTestContext()
    const narrow = await createTestContext()
    for (const schema of [ENTITIES, RELATIONSHIPS, COMMUNITIES]) {
      const rows = await reference.read(schema)
      await whole.tables.write(schema, rows)
      await narrow.tables.write(schema, rows)
    }
    await whole.tables.write(TEXT_UNITS, await reference.read(TEXT_UNITS))
    await narrow.tables.write(UNIT_TEXT, await reference.read(UNIT_TEXT))
    await createCommunityReportsText.run(whole.ctx)
    await createCommunityReportsText.run(narrow.ctx)
    const reports = await narrow.tables.read(COMMUNITY_REPORTS)
    expect(reports.length).toBeGreaterThan(0)
    expect(reports).toEqual(await whole.tables.read(COMMUNITY_REPORTS))
  })
})
