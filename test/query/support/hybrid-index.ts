/**
 * A tiny hand-built index for hybrid search tests: six text units, a four-entity graph, vectors
 * placed so the question's nearest passages are known, and (optionally) chunk edges. Passage u3
 * is reachable only by BM25 (a rare code), u5 only through the graph (one hop from HARBOUR COUNCIL).
 */
import { join } from 'node:path'
import {
  CHUNK_EDGES,
  DOCUMENTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type ChunkEdgeRow,
} from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/index.js'
import { openVectorStore } from '../../../src/storage/vector-store.js'

export const DIMENSION = 4

/** Unit vectors along one axis each; the questions embed to a mix of axes 0 and 1 (see QUESTION_VECTORS). */
const axis = (i: number, tilt = 0) => [0, 1, 2, 3].map((k) => (k === i ? 1 : k === (i + 1) % 4 ? tilt : 0))

const UNITS = [
  {
    id: 'u1',
    text: 'The harbour ferry leaves Market Quay at dawn every morning.',
    vector: axis(0),
    entities: ['e-ferry'],
  },
  {
    id: 'u2',
    text: 'Tickets for the ferry are sold in the cooperative office.',
    vector: axis(1),
    entities: ['e-ferry'],
  },
  {
    id: 'u3',
    text: 'Maintenance log: the drive gear with part code XK-4471 wore out in December.',
    vector: axis(2),
    entities: [],
  },
  { id: 'u4', text: 'Gulls nest on Tern Rocks in spring.', vector: axis(3), entities: [] },
  {
    id: 'u5',
    text: 'The keeper wrote two letters about the worn gear, and nobody answered them.',
    vector: axis(2, 0.5),
    entities: ['e-venn'],
  },
  {
    id: 'u6',
    text: 'The Harbour Council meets in the upper room of the town hall.',
    vector: axis(3, 0.2),
    entities: ['e-council'],
  },
]

const ENTITY_ROWS = [
  { id: 'e-ferry', title: 'FERRY', units: ['u1', 'u2'] },
  { id: 'e-venn', title: 'ELIAS VENN', units: ['u5'] },
  { id: 'e-council', title: 'HARBOUR COUNCIL', units: ['u6'] },
  { id: 'e-rocks', title: 'TERN ROCKS', units: ['u4'] },
]

/** Questions and the vectors the fake server returns for them: all lean to u1 and u2. */
export const QUESTIONS = {
  bm25: 'Which part has the code XK-4471?',
  graph: 'What did the Harbour Council do?',
  none: 'Is there a timetable for the boats?',
}
export const QUESTION_VECTORS: Record<string, number[]> = Object.fromEntries(
  Object.values(QUESTIONS).map((q) => [q, [0.8, 0.6, 0, 0]]),
)

/** `relationshipVectors`: also a relationship_description table, r1 pointing the questions' way. */
export async function writeHybridIndex(
  dir: string,
  edges: readonly ChunkEdgeRow[] = [],
  relationshipVectors = false,
): Promise<void> {
  const store = new ParquetTableStore(dir)
  // One document: sources read as its title in the text output.
  await store.write(DOCUMENTS, [
    {
      id: 'd1',
      human_readable_id: 0,
      title: 'harbour-notes.txt',
      text: UNITS.map((u) => u.text).join('\n'),
      text_unit_ids: UNITS.map((u) => u.id),
      creation_date: '2026-01-01T00:00:00Z',
      raw_data: null,
    },
  ])
  await store.write(
    TEXT_UNITS,
    UNITS.map((u, i) => ({
      id: u.id,
      human_readable_id: i,
      text: u.text,
      n_tokens: 20,
      document_id: 'd1',
      entity_ids: u.entities,
      relationship_ids: [],
      covariate_ids: [],
    })),
  )
  await store.write(
    ENTITIES,
    ENTITY_ROWS.map((e, i) => ({
      id: e.id,
      human_readable_id: i,
      title: e.title,
      type: 'ORGANIZATION',
      description: `${e.title} of the harbour`,
      text_unit_ids: e.units,
      frequency: e.units.length,
      degree: 1,
    })),
  )
  await store.write(RELATIONSHIPS, [
    {
      id: 'r1',
      human_readable_id: 0,
      source: 'ELIAS VENN',
      target: 'HARBOUR COUNCIL',
      description: 'Elias Venn wrote to the Harbour Council',
      weight: 2,
      combined_degree: 2,
      text_unit_ids: ['u5'],
    },
  ])
  if (edges.length > 0) await store.write(CHUNK_EDGES, [...edges])
  const vectors = await openVectorStore(join(dir, 'lancedb'))
  await vectors.replaceTable(
    'text_unit_text',
    UNITS.map((u) => ({ id: u.id, vector: u.vector })),
    new Date(Date.UTC(2026, 0, 1)),
  )
  if (relationshipVectors)
    await vectors.replaceTable(
      'relationship_description',
      [{ id: 'r1', vector: [0.8, 0.6, 0, 0] }],
      new Date(Date.UTC(2026, 0, 1)),
    )
  vectors.close()
}
