/** Workflow finalize_graph: degrees and stable ids for the final entities and relationships, optional GraphML. */
import { join } from 'node:path'
import { ENTITIES, EXTRACTED_ENTITIES } from '../../model/entities.js'
import { EXTRACTED_RELATIONSHIPS, RELATIONSHIPS } from '../../model/relationships.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import { asWritten } from '../../storage/table-columns.js'
import { readColumns } from '../../storage/table-store.js'
import { finalRelationshipColumns } from '../operations/finalize-codes.js'
import { finalizeEntities, renderGraphml } from '../operations/finalize-graph.js'
import { defineWorkflow } from '../workflow.js'

export const finalizeGraph = defineWorkflow({
  name: 'finalize_graph',
  reads: [EXTRACTED_ENTITIES.name, EXTRACTED_RELATIONSHIPS.name],
  writes: [ENTITIES.name, RELATIONSHIPS.name],
  fingerprint: (settings) => ({ graphml: settings.snapshots.graphml }),
  async run(ctx) {
    // Columns are matched by name, so this also reads the fast method's column order. The relationships
    // are read as columns (tens of millions of rows on a dense corpus) and made into rows as written.
    const entities = await ctx.tables.read(EXTRACTED_ENTITIES)
    const relationships = finalRelationshipColumns(await readColumns(ctx.tables, EXTRACTED_RELATIONSHIPS))
    const finalEntities = finalizeEntities(entities, relationships.degrees)
    await ctx.tables.write(ENTITIES, finalEntities)
    await ctx.tables.write(RELATIONSHIPS, asWritten(relationships.rows))
    if (ctx.settings.snapshots.graphml) {
      await writeFileAtomic(
        join(ctx.settings.output_storage.base_dir, 'graph.graphml'),
        renderGraphml(relationships.rows.slice()),
      )
    }
    return { rows: { [ENTITIES.name]: finalEntities.length, [RELATIONSHIPS.name]: relationships.rows.length } }
  },
})
