/** Per-chunk caps of graph extraction (seed design 001), keys of the extract_graph section. */
import { int } from '../fields.js'

export const extractionCaps = {
  max_entities_per_chunk: int(
    50,
    'Distinct entities kept per text unit, those its records name most often first (0 = no cap).',
    { min: 0, max: 1_000_000 },
  ),
  max_relationships_per_chunk: int(50, 'Relationships kept per text unit, highest weight first (0 = no cap).', {
    min: 0,
    max: 1_000_000,
  }),
}
