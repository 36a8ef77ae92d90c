/** Workflow create_final_text_units: rewrites text_units with the ids of the rows that cite them. */
import { COVARIATES } from '../../model/covariates.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { BASE_TEXT_UNITS, TEXT_UNITS } from '../../model/text-units.js'
import { readColumns } from '../../storage/table-store.js'
import { createFinalTextUnits as computeTextUnits } from '../operations/create-final-text-units.js'
import { defineWorkflow } from '../workflow.js'

const CITING = ['id', 'text_unit_ids'] as const

/** Only the columns the citations need, as codes: a dense corpus's relationships are millions of rows. */
const CITING_ENTITIES = pickColumns(ENTITIES, CITING)
const CITING_RELATIONSHIPS = pickColumns(RELATIONSHIPS, CITING)

export const createFinalTextUnits = defineWorkflow({
  name: 'create_final_text_units',
  reads: [BASE_TEXT_UNITS.name, ENTITIES.name, RELATIONSHIPS.name, COVARIATES.name],
  writes: [TEXT_UNITS.name],
  extendsTables: [TEXT_UNITS.name],
  fingerprint: (settings) => ({ claims: settings.extract_claims.enabled }),
  async run(ctx) {
    const textUnits = await ctx.tables.read(BASE_TEXT_UNITS)
    // Without entity extraction (extract_graph.enabled: false, plan/entity-switch.ts, or an explicit
    // workflows list without it) the units cite no entity or relationship.
    const optional = !ctx.settings.extract_graph.enabled || ctx.settings.workflows !== null
    const graphless = optional && !(await ctx.tables.has(ENTITIES.name))
    // As the reference: covariates only count when claims are enabled and the table exists.
    const withClaims = ctx.settings.extract_claims.enabled && (await ctx.tables.has(COVARIATES.name))
    const covariates = withClaims ? await ctx.tables.read(COVARIATES) : undefined
    // The citing columns are read in the call, so no variable keeps them through the write (at 30 MB the
    // relationships' codes are ~160 MB; the rows keep only the id strings).
    const rows = computeTextUnits(
      textUnits,
      graphless ? [] : await readColumns(ctx.tables, CITING_ENTITIES),
      graphless ? [] : await readColumns(ctx.tables, CITING_RELATIONSHIPS),
      covariates,
    )
    await ctx.tables.write(TEXT_UNITS, rows)
    return { rows: { [TEXT_UNITS.name]: rows.length } }
  },
})
