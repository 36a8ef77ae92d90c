/**
 * What eval needs of an index besides the searches: each text unit's text and document title, and
 * each community report's text and documents, so a search's context can be matched to gold evidence.
 */
import { COMMUNITIES, COMMUNITY_REPORTS, DOCUMENTS, pickColumns, TEXT_UNITS } from '../model/index.js'
import { ParquetTableStore } from '../storage/table-store.js'

export interface CorpusUnit {
  id: string
  humanReadableId: number
  text: string
  document: string
}

export interface CorpusReport {
  community: number
  title: string
  text: string
  documents: string[]
}

export interface Corpus {
  units: CorpusUnit[]
  unitById: ReadonlyMap<string, CorpusUnit>
  /** Keyed by String(human_readable_id): the id local, basic and graph search show in their sources table. */
  unitByReadableId: ReadonlyMap<string, CorpusUnit>
  reports: CorpusReport[]
  reportByCommunity: ReadonlyMap<string, CorpusReport>
}

const UNIT_COLUMNS = pickColumns(TEXT_UNITS, ['id', 'human_readable_id', 'text', 'document_id'])
const DOCUMENT_COLUMNS = pickColumns(DOCUMENTS, ['id', 'title'])
const REPORT_COLUMNS = pickColumns(COMMUNITY_REPORTS, ['community', 'title', 'full_content'])
const COMMUNITY_COLUMNS = pickColumns(COMMUNITIES, ['community', 'text_unit_ids'])

/** Reads the corpus of the index in `dataDir`; documents, reports and communities are optional tables. */
export async function loadCorpus(dataDir: string): Promise<Corpus> {
  const store = new ParquetTableStore(dataDir, 'js')
  const read = async <T>(name: string, load: () => Promise<T[]>): Promise<T[]> =>
    (await store.has(name)) ? load() : []
  const titles = new Map(
    (await read(DOCUMENTS.name, () => store.read(DOCUMENT_COLUMNS))).map((d) => [d.id, d.title] as const),
  )
  const units = (await store.read(UNIT_COLUMNS)).map((u) => ({
    id: u.id,
    humanReadableId: Number(u.human_readable_id),
    text: u.text,
    document: titles.get(u.document_id) ?? u.document_id,
  }))
  const unitById = new Map(units.map((u) => [u.id, u]))
  const unitIdsByCommunity = new Map(
    (await read(COMMUNITIES.name, () => store.read(COMMUNITY_COLUMNS))).map(
      (c) => [String(c.community), c.text_unit_ids] as const,
    ),
  )
  const reports = (await read(COMMUNITY_REPORTS.name, () => store.read(REPORT_COLUMNS))).map((r) => {
    const ids = unitIdsByCommunity.get(String(r.community)) ?? []
    const documents = [...new Set(ids.flatMap((id) => unitById.get(id)?.document ?? []))].sort()
    return { community: Number(r.community), title: r.title, text: r.full_content, documents }
  })
  return {
    units,
    unitById,
    unitByReadableId: new Map(units.map((u) => [String(u.humanReadableId), u])),
    reports,
    reportByCommunity: new Map(reports.map((r) => [String(r.community), r])),
  }
}
