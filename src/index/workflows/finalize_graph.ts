/** Workflow finalize_graph: degrees and stable ids for the final entities and relationships, optional GraphML. */
import { join } from 'node:path'
import { ENTITIES, EXTRACTED_ENTITIES } from '../../model/entities.js'
import { EXTRACTED_RELATIONSHIPS, RELATIONSHIPS } from '../../model/relationships.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import { finalizeGraph as finalize, renderGraphml } from '../operations/finalize-graph.js'
import { defineWorkflow } from '../workflow.js'

export const finalizeGraph = defineWorkflow({
  name: 'finalize_graph',
  reads: [EXTRACTED_ENTITIES.name, EXTRACTED_RELATIONSHIPS.name],
  writes: [ENTITIES.name, RELATIONSHIPS.name],
  fingerprint: (settings) => ({ graphml: settings.snapshots.graphml }),
  async run(ctx) {
    // Columns are matched by name, so this also reads the fast method's column order.
    const entities = await ctx.tables.read(EXTRACTED_ENTITIES)
    const relationships = await ctx.tables.read(EXTRACTED_RELATIONSHIPS)
    const out = finalize(entities, relationships)
    await ctx.tables.write(ENTITIES, out.entities)
    await ctx.tables.write(RELATIONSHIPS, out.relationships)
    if (ctx.settings.snapshots.graphml) {
      await writeFileAtomic(
        join(ctx.settings.output_storage.base_dir, 'graph.graphml'),
        renderGraphml(out.relationships),
      )
    }
    return { rows: { [ENTITIES.name]: out.entities.length, [RELATIONSHIPS.name]: out.relationships.length } }
  },
})
