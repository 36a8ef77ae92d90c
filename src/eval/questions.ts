/**
 * Reads a question file (CSV, JSON or JSONL) into eval questions. Fields: `question` (required),
 * `answer`, `evidence`, `type`, `assertions`, `id`; `--field our=theirs` maps a public benchmark's
 * names (a dotted path reaches into nested objects). Columns nobody maps are ignored.
 */
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { InputError } from '../errors.js'
import { csvRows } from '../index/input/csv.js'
import { UnreadableTextError } from '../index/input/decode-text.js'

export interface EvalQuestion {
  id: string
  question: string
  /** Gold answer. */
  answer?: string
  /** Gold passages (quoted text) or document names. */
  evidence: string[]
  /** Question type (local, global, multi-hop, …); 'untyped' when the file gives none. */
  type: string
  /** Statements a good answer must contain. */
  assertions: string[]
}

const QUESTION_FIELDS = ['id', 'question', 'answer', 'evidence', 'type', 'assertions'] as const
type QuestionField = (typeof QUESTION_FIELDS)[number]
export type FieldMap = Partial<Record<QuestionField, string>>

/** Parses `--field question=q` values into a map, naming an unknown field of ours. */
export function parseFieldMap(specs: readonly string[]): FieldMap {
  const map: FieldMap = {}
  for (const spec of specs) {
    const match = /^([a-z_]+)=(.+)$/.exec(spec.trim())
    if (match === null) throw new InputError(`--field ${spec}: expected our=theirs, e.g. question=q`)
    const ours = match[1] as QuestionField
    if (!QUESTION_FIELDS.includes(ours))
      throw new InputError(`--field ${spec}: "${match[1]}" is not a question field (${QUESTION_FIELDS.join(', ')})`)
    map[ours] = match[2]!
  }
  return map
}

/** The records of the file, by its extension: .csv, .json (an array, or {questions: [...]}), .jsonl/.ndjson. */
function readRecords(path: string): unknown[] {
  const text = readFileSync(path, 'utf8').replace(/\r\n?/g, '\n')
  const ext = extname(path).toLowerCase()
  if (ext === '.csv') {
    try {
      return csvRows(text)
    } catch (error) {
      if (!(error instanceof UnreadableTextError)) throw error
      throw new InputError(`${path}: ${error.message}`, { file: path, cause: error })
    }
  }
  if (ext === '.jsonl' || ext === '.ndjson') {
    return text.split('\n').flatMap((line, i) => (line.trim() === '' ? [] : [parseJson(line, path, i + 1)]))
  }
  if (ext === '.json') {
    const value = parseJson(text, path)
    const list = Array.isArray(value) ? value : (value as { questions?: unknown } | null)?.questions
    if (!Array.isArray(list))
      throw new InputError(`${path}: expected a JSON array of questions or {"questions": [...]}`)
    return list
  }
  throw new InputError(`${path}: unknown question file type "${ext}" (expected .csv, .json or .jsonl)`, { file: path })
}

function parseJson(text: string, path: string, line?: number): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    const where = line === undefined ? '' : ` line ${line}`
    throw new InputError(`${path}${where}: not valid JSON (${error.message})`, { file: path, row: line })
  }
}

/** The value at a dotted path of a record. */
function valueAt(record: unknown, path: string): unknown {
  let value: unknown = record
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/**
 * A list field: a JSON array (in JSON, or as the text of a CSV cell), one item per line, or one
 * item. An item that is itself a list contributes its first element (HotpotQA's `[title, sentence]`).
 */
function listOf(value: unknown): string[] {
  if (value === undefined || value === null) return []
  if (typeof value === 'string') {
    const text = value.trim()
    if (text.startsWith('[')) {
      try {
        return listOf(JSON.parse(text))
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error
      }
    }
    return text.split('\n').map((s) => s.trim())
  }
  const items = Array.isArray(value) ? value : [value]
  const flat = items.map((item) => (Array.isArray(item) ? item[0] : item))
  return [...new Set(flat.filter((v) => v !== undefined && v !== null).map((v) => String(v).trim()))].filter(
    (s) => s !== '',
  )
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim()
  return text === '' ? undefined : text
}

/** Reads and checks the questions; a row without a question is an error naming the file and row. */
export function readQuestions(path: string, fields: FieldMap = {}): EvalQuestion[] {
  const records = readRecords(path)
  const get = (record: unknown, field: QuestionField) => valueAt(record, fields[field] ?? field)
  const questions = records.map((record, i): EvalQuestion => {
    const question = textOf(get(record, 'question'))
    if (question === undefined)
      throw new InputError(`${path} row ${i + 1}: no "${fields.question ?? 'question'}" value`, {
        file: path,
        row: i + 1,
      })
    const answer = textOf(get(record, 'answer'))
    return {
      id: textOf(get(record, 'id')) ?? `q${i + 1}`,
      question,
      ...(answer === undefined ? {} : { answer }),
      evidence: listOf(get(record, 'evidence')).filter((s) => s !== ''),
      type: textOf(get(record, 'type')) ?? 'untyped',
      assertions: listOf(get(record, 'assertions')).filter((s) => s !== ''),
    }
  })
  if (questions.length === 0) throw new InputError(`${path}: no questions`, { file: path })
  // Answers are paired across methods by id: two questions with one id would be compared with each other.
  const firstRow = new Map<string, number>()
  questions.forEach((q, i) => {
    const earlier = firstRow.get(q.id)
    if (earlier !== undefined)
      throw new InputError(`${path} row ${i + 1}: id "${q.id}" is already used by row ${earlier}`, {
        file: path,
        row: i + 1,
      })
    firstRow.set(q.id, i + 1)
  })
  return questions
}
