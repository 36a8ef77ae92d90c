/**
 * Unit records: what graph extraction made of one text unit (its records after the caps, and the
 * bookkeeping), kept in the model cache beside the answers it was read from, in the partition
 * `<model_instance_name>/graph_extractions`, so model_replies carries them into an update as it
 * carries the answers. A record is keyed by the unit's text and by everything else that shapes its
 * conversation (`material`: the workflow's settings, its models' settings and prompts, the format
 * below), and names the cache entry of each answer, in the order asked, with a hash of its text.
 *
 * Replaying a record reads those entries in that order, as the model calls would (so the run
 * records the same entries in model_replies), and stops at the first one missing or changed: the
 * unit then takes the full path. Up to that point the conversation is the one recorded (the same
 * requests meet the same answers), so a record that replays whole is the outcome the full path
 * would reach, without building each request's cache key and parsing every reply again (an update
 * of a 100,001-entity index replays 20,000 units).
 */
import { createHash, hash } from 'node:crypto'
import type { KeyValueStore } from '../../../storage/key-value-store.js'
import type { UnitExtraction } from './merge.js'
import type { DroppedRecord } from './parse.js'

/**
 * Part of the key material (workflows/unit-record-setup.ts): bump it when this format changes, or
 * when the extraction asks or reads differently (the conversation in extract.ts and gleaning.ts, the
 * reading in parse.ts, read-reply.ts, reply-text.ts, structured-reply.ts, caps.ts), so records made
 * by the older code are not replayed. test/index/operations/extract-graph-unit-records.test.ts pins
 * those files' hash and fails until the format is bumped (or the change is declared not to matter).
 */
export const UNIT_RECORD_FORMAT = 1

export const UNIT_RECORD_PARTITION = 'graph_extractions'

/** A successful unit's outcome: what extractGraph keeps of it. */
export interface UnitResult {
  extraction: UnitExtraction
  /** Only the first usable reply is kept (for the "no entities" error). */
  firstReply: string | undefined
  calls: number
  dropped: DroppedRecord[]
  unreadableReplies: number
  defaultedWeights: number
  weightless: string[]
  retried: string[]
  blank: number
  capped: { entities: number; relationships: number }
}

/** One answer of a unit's conversation: its cache key (absent: not cached) and text. */
export interface Answer {
  key: string | undefined
  content: string
}

export interface UnitRecords {
  /** Where the records are (`<model partition>/graph_extractions`). */
  store: KeyValueStore
  /** The extraction model's cache partition, whose entries the records name. */
  replies: KeyValueStore
  /** Digest of everything besides the unit's text that shapes its conversation. */
  material: string
}

/** The record as stored: arrays rather than objects, as model_replies keeps one per text unit. */
interface StoredRecord {
  format: number
  answers: Array<[key: string, hash: string]>
  entities: Array<[title: string, type: string, description: string]>
  relationships: Array<[source: string, target: string, description: string, weight: number]>
  calls: number
  dropped: Array<[text: string, reason: string]>
  unreadable: number
  defaulted: number
  weightless: string[]
  retried: string[]
  capped: [entities: number, relationships: number]
}

function recordKey(records: UnitRecords, text: string): string {
  return createHash('sha256').update(records.material).update('\u0000').update(text).digest('hex')
}

function hashOf(content: string): string {
  return hash('sha256', content, 'base64')
}

/**
 * Keeps the unit's outcome when every answer of its conversation is in the cache (a blank reply or
 * a run without a cache leaves nothing to replay from).
 */
export async function saveUnitRecord(
  records: UnitRecords,
  unit: { text: string },
  result: UnitResult,
  answers: readonly Answer[],
): Promise<void> {
  if (result.blank > 0 || answers.length === 0 || answers.some((a) => a.key === undefined)) return
  const { extraction: x } = result
  const stored: StoredRecord = {
    format: UNIT_RECORD_FORMAT,
    answers: answers.map((a) => [a.key!, hashOf(a.content)]),
    entities: x.entities.map((e) => [e.title, e.type, e.description]),
    relationships: x.relationships.map((r) => [r.source, r.target, r.description, r.weight]),
    calls: result.calls,
    dropped: result.dropped.map((d) => [d.text, d.reason]),
    unreadable: result.unreadableReplies,
    defaulted: result.defaultedWeights,
    weightless: result.weightless,
    retried: result.retried,
    capped: [result.capped.entities, result.capped.relationships],
  }
  await records.store.set(recordKey(records, unit.text), JSON.stringify(stored))
}

/** The unit's recorded outcome when its record and every answer it names are there unchanged. */
export async function replayUnitRecord(
  records: UnitRecords,
  unit: { id: string; text: string },
): Promise<UnitResult | undefined> {
  const raw = await records.store.get(recordKey(records, unit.text))
  const stored = raw === undefined ? undefined : storedRecord(raw)
  if (stored === undefined) return undefined
  const contents: string[] = []
  for (const [key, hash] of stored.answers) {
    const content = answerText(await records.replies.get(key))
    if (content === undefined || hashOf(content) !== hash) return undefined
    contents.push(content)
  }
  return resultOf(stored, unit.id, contents[stored.retried.length])
}

function resultOf(stored: StoredRecord, textUnitId: string, firstReply: string | undefined): UnitResult {
  return {
    extraction: {
      textUnitId,
      entities: stored.entities.map(([title, type, description]) => ({ title, type, description })),
      relationships: stored.relationships.map(([source, target, description, weight]) => ({
        source,
        target,
        description,
        weight,
      })),
    },
    firstReply,
    calls: stored.calls,
    dropped: stored.dropped.map(([text, reason]) => ({ text, reason })),
    unreadableReplies: stored.unreadable,
    defaultedWeights: stored.defaulted,
    weightless: stored.weightless,
    retried: stored.retried,
    blank: 0,
    capped: { entities: stored.capped[0], relationships: stored.capped[1] },
  }
}

/** A record of this format, or undefined (another format, or not JSON: the unit takes the full path). */
function storedRecord(raw: string): StoredRecord | undefined {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    if (error instanceof SyntaxError) return undefined
    throw error
  }
  const record = value as Partial<StoredRecord> | null
  return record?.format === UNIT_RECORD_FORMAT && Array.isArray(record.answers) && record.answers.length > 0
    ? (record as StoredRecord)
    : undefined
}

/** The reply text of a chat cache entry (llm/cache.ts: `{ version, reply: { content, … } }`). */
function answerText(entry: string | undefined): string | undefined {
  if (entry === undefined) return undefined
  try {
    const content = (JSON.parse(entry) as { reply?: { content?: unknown } } | null)?.reply?.content
    return typeof content === 'string' ? content : undefined
  } catch (error) {
    if (error instanceof SyntaxError) return undefined
    throw error
  }
}
