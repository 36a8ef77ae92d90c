/**
 * docs/outputs.md's table reference, rendered from the table declarations that the writers and
 * readers use (`npm run docs` writes it; a test fails when the page is stale).
 */
import { CHUNK_EDGES } from './chunk-edges.js'
import { COMMUNITIES } from './communities.js'
import { COMMUNITY_REPORTS } from './community-reports.js'
import { COVARIATES } from './covariates.js'
import { CURATION_RULES } from './curation-rules.js'
import { DOCUMENTS } from './documents.js'
import { EMBEDDING_KEYS } from './embedding-keys.js'
import { ENTITIES } from './entities.js'
import { ENTITY_ALIASES } from './entity-aliases.js'
import { MODEL_REPLIES } from './model-replies.js'
import { RELATIONSHIPS } from './relationships.js'
import type { TableSchema } from './schema.js'
import { TEXT_UNITS } from './text-units.js'

/** The final tables of an index, in the order the pipeline writes them. */
const FINAL_TABLES: readonly TableSchema[] = [
  DOCUMENTS,
  TEXT_UNITS,
  ENTITIES,
  RELATIONSHIPS,
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
  CHUNK_EDGES,
  ENTITY_ALIASES,
  CURATION_RULES,
  MODEL_REPLIES,
  EMBEDDING_KEYS,
]

export function renderTableReference(): string {
  const out: string[] = []
  for (const table of FINAL_TABLES) {
    out.push(`### ${table.name}.parquet`, '', '| column | type | nullable |', '|---|---|---|')
    for (const c of table.columns)
      out.push(
        `| \`${c.name}\` | ${c.kind.replace(/[<>]/g, (m) => (m === '<' ? '&lt;' : '&gt;'))} | ${c.nullable ? 'yes' : ''} |`,
      )
    out.push('')
  }
  return `${out.join('\n').trimEnd()}\n`
}
