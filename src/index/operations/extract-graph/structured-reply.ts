/**
 * Records in the forms models write when they do not follow the tuple format: JSON (an object with
 * entity and relationship lists, or an array of records), Markdown tables, labelled lines
 * ("Entity: … Type: … Description: …") and bold list items (`1. **NAME** (Type): description`,
 * `- **A** → **B**: description (strength: 8)`), in English and Chinese. Used only when a reply holds
 * no tuple records, so well-formed replies are read exactly as before.
 */
import { parseTolerant } from '../../../llm/json.js'
import type { ParsedEntity, ParsedGraphReply, ParsedRelationship } from './parse.js'
import { cleanName, cleanText, parseStrength, unquote } from './reply-text.js'

type Role = 'name' | 'type' | 'description' | 'source' | 'target' | 'strength'

// Field labels and JSON keys, lower-cased with spaces, `_` and `-` removed.
const ROLES: ReadonlyArray<readonly [Role, readonly string[]]> = [
  [
    'source',
    [
      'source',
      'sourceentity',
      'src',
      'srcid',
      'from',
      'subject',
      'head',
      '源实体',
      '源',
      '源头实体',
      '起始实体',
      '实体1',
      '主体',
    ],
  ],
  ['target', ['target', 'targetentity', 'tgt', 'tgtid', 'to', 'object', 'tail', '目标实体', '目标', '实体2', '客体']],
  ['name', ['entity', 'entityname', 'name', 'title', 'entitytitle', '实体', '实体名称', '实体名', '名称', '名字']],
  ['type', ['type', 'entitytype', 'category', 'label', '类型', '实体类型', '类别']],
  [
    'description',
    [
      'description',
      'entitydescription',
      'relationshipdescription',
      'relationdescription',
      'desc',
      '描述',
      '实体描述',
      '关系描述',
      '关系',
      '说明',
    ],
  ],
  ['strength', ['strength', 'weight', 'score', 'relationshipstrength', 'relationstrength', '强度', '关系强度', '权重']],
]

function roleOf(label: string): Role | undefined {
  const key = label.toLowerCase().replace(/[\s_*`'"-]/g, '')
  return ROLES.find(([, names]) => names.includes(key))?.[0]
}

type Fields = Partial<Record<Role, string>>

/** `types`: the configured entity types, so `- "paris" (geo)` is read as a name and its type. */
export function readStructuredRecords(text: string, types: readonly string[] = []): ParsedGraphReply {
  const out: ParsedGraphReply = { entities: [], relationships: [], dropped: [], defaultedWeights: 0 }
  const seenEntities = new Set<string>()
  const seenRelationships = new Set<string>()
  const add = (fields: Fields, raw: string) => {
    const rel = toRelationship(fields)
    if (rel !== undefined) {
      const key = `${rel.source}\u0000${rel.target}`
      if (seenRelationships.has(key)) return
      seenRelationships.add(key)
      if (rel.weight === undefined) {
        out.defaultedWeights++
        ;(out.weightless ??= []).push(raw)
      }
      out.relationships.push({ ...rel, weight: rel.weight ?? 1 })
      return
    }
    const entity = toEntity(fields)
    if (entity === undefined) {
      if (fields.source !== undefined || fields.target !== undefined)
        out.dropped.push({ text: raw, reason: 'relationship without source or target' })
      return
    }
    if (seenEntities.has(entity.title)) return
    seenEntities.add(entity.title)
    out.entities.push(entity)
  }
  // Markdown first, then JSON: a list followed by a ```json block with the same records keeps one copy.
  for (const record of markdownRecords(text, types)) add(record.fields, record.raw)
  for (const record of jsonRecords(text)) add(record, JSON.stringify(record))
  return out
}

function toEntity(fields: Fields): ParsedEntity | undefined {
  const title = cleanName(fields.name ?? '')
  if (title === '') return undefined
  return { title, type: cleanName(fields.type ?? ''), description: unquote(cleanText(fields.description ?? '')) }
}

function toRelationship(fields: Fields): (Omit<ParsedRelationship, 'weight'> & { weight?: number }) | undefined {
  const source = cleanName(fields.source ?? '')
  const target = cleanName(fields.target ?? '')
  if (source === '' || target === '') return undefined
  const weight = fields.strength === undefined ? undefined : parseStrength(fields.strength)
  return {
    source,
    target,
    description: unquote(cleanText(fields.description ?? '')),
    ...(weight === undefined ? {} : { weight }),
  }
}

// ---------------------------------------------------------------- JSON

/** Every record object in the reply's JSON values (fenced blocks first, then the bare text). */
function jsonRecords(text: string): Fields[] {
  const blocks = [...text.matchAll(/```[ \t]*(?:json|JSON)?[ \t]*\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const candidates = blocks.length > 0 ? blocks : /[{[]/.test(text) ? [text] : []
  const out: Fields[] = []
  for (const candidate of candidates) collect(parseTolerant(candidate), out)
  return out
}

function collect(value: unknown, out: Fields[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out)
    return
  }
  if (typeof value !== 'object' || value === null) return
  const fields: Fields = {}
  const nested: unknown[] = []
  const record = value as Record<string, unknown>
  for (const [key, v] of Object.entries(record)) {
    if (typeof v === 'object' && v !== null) nested.push(v)
    else if (v !== null && v !== undefined) assign(fields, key, String(v))
  }
  // `{"type": "entity", "name": …, "entity_type": …}`: here `type` names the record kind.
  if (/^(entity|relationship|relation)$/i.test(fields.type ?? '')) {
    delete fields.type
    if (typeof record.entity_type === 'string') fields.type = record.entity_type
  }
  if (fields.name !== undefined || (fields.source !== undefined && fields.target !== undefined)) out.push(fields)
  for (const v of nested) collect(v, out)
}

function assign(fields: Fields, key: string, value: string): void {
  const role = roleOf(key)
  if (role !== undefined && fields[role] === undefined) fields[role] = value
}

// ---------------------------------------------------------------- Markdown

interface MarkdownRecord {
  fields: Fields
  raw: string
}

const BULLET = /^[ \t]*(?:[-*+•]|\d+[.)、])[ \t]+/
const EMPHASIS = /\*\*|__|`/g
// `Label: value` (ASCII or full-width colon), the label at most a few words.
const LABELLED = /^([\p{L}\p{N} _-]{1,30}?)[ \t]*[:：][ \t]*(.*)$/u
const ARROW = /[ \t]*(?:→|->|-->|—>|=>|⇒|↔|<->|⟶)[ \t]*/
const TRAILING_STRENGTH =
  /[ \t]*[([（]\s*(?:(?:relationship[ _-]?)?(?:strength|weight|score)|强度|权重)?\s*[:=：]?\s*(-?\d+(?:\.\d+)?)(?:\s*\/\s*10)?\s*[)\]）]\s*\.?$/i

function markdownRecords(text: string, types: readonly string[]): MarkdownRecord[] {
  const withoutFences = text.replace(/```[\s\S]*?(?:```|$)/g, '\n')
  return [...tableRecords(withoutFences), ...labelledRecords(withoutFences), ...bulletRecords(withoutFences, types)]
}

function tableRecords(text: string): MarkdownRecord[] {
  const out: MarkdownRecord[] = []
  let roles: Array<Role | undefined> | undefined
  for (const line of text.split('\n')) {
    if (!/^\s*\|.*\|\s*$/.test(line)) {
      roles = undefined
      continue
    }
    const cells = line
      .trim()
      .slice(1, -1)
      .split('|')
      .map((c) => c.replace(EMPHASIS, '').trim())
    if (cells.every((c) => /^:?-{2,}:?$/.test(c))) continue
    if (roles === undefined) {
      roles = cells.map(roleOf)
      continue
    }
    const fields: Fields = {}
    cells.forEach((cell, i) => {
      const role = roles![i]
      if (role !== undefined && cell !== '' && fields[role] === undefined) fields[role] = cell
    })
    out.push({ fields, raw: line.trim() })
  }
  return out
}

/** Consecutive `Label: value` lines form one record; a label seen again starts the next one. */
function labelledRecords(text: string): MarkdownRecord[] {
  const out: MarkdownRecord[] = []
  let fields: Fields = {}
  let raw: string[] = []
  const flush = () => {
    if (Object.keys(fields).length >= 2) out.push({ fields, raw: raw.join('\n') })
    fields = {}
    raw = []
  }
  for (const line of text.split('\n')) {
    const m = LABELLED.exec(line.replace(BULLET, '').replace(EMPHASIS, '').trim())
    const role = m === null ? undefined : roleOf(m[1]!)
    if (role === undefined || m![2]!.trim() === '') {
      if (line.trim() === '' || /^\s*#/.test(line) || m === null) flush()
      continue
    }
    if (fields[role] !== undefined || BULLET.test(line)) {
      if (fields[role] !== undefined || role === 'name' || role === 'source') flush()
    }
    fields[role] = m![2]!.trim()
    raw.push(line.trim())
  }
  flush()
  return out
}

type Section = 'entities' | 'relationships' | 'other' | undefined

// A heading: `### Entities`, `**Relationships:**`, `#### **组织 (Organization)**`, `Category:`.
const HEADING = /^[ \t]*(?:#{1,6}[ \t]*(.+?)[ \t]*#*|\*\*([^*]+)\*\*[ \t]*[:：]?|([\p{L}][\p{L} ]{0,30}[:：]))[ \t]*$/u
const RELATIONSHIP_HEADING = /relationship|relation|关系/i
const ENTITY_HEADING = /entit|实体/i
const OTHER_HEADING = /keyword|关键词|summary|总结|note|detail|context|output|analysis|说明|注/i
// A list item saying that there is nothing of a kind: `None explicitly mentioned`, `无明确地理实体`.
const NOTHING = /^(?:none|no |n\/a|nothing|无|没有)/i

// A sentence introducing a list: `Based on the text, here are the entities:`.
const LEAD_IN = /^[ \t]*[^\n#|*-][^\n]{0,100}\b(entities|relationships)\b[^\n]{0,40}[:：][ \t]*$/i

/** What the heading starts: entity or relationship records, something else, or (undefined) not a heading. */
function sectionOf(line: string, current: Section): Section | 'type' | undefined {
  const leadIn = LEAD_IN.exec(line)
  if (leadIn !== null && !BULLET.test(line)) return /^entit/i.test(leadIn[1]!) ? 'entities' : 'relationships'
  const m = HEADING.exec(line)
  if (m === null || BULLET.test(line)) return undefined
  const title = (m[1] ?? m[2] ?? m[3]!).replace(EMPHASIS, '')
  if (RELATIONSHIP_HEADING.test(title)) return 'relationships'
  if (ENTITY_HEADING.test(title)) return 'entities'
  if (OTHER_HEADING.test(title)) return 'other'
  // A type heading (`**Category:**`, `#### 组织 (Organization)`) inside the entity section.
  return current === 'entities' ? 'type' : 'other'
}

/**
 * List items: `1. **NAME** (Type): description` (the description may follow on indented lines),
 * `- **A** → **B**: description (strength: 8)`, `1. **A → B**`; and, under an entities heading, plain
 * items (`- NAME`, `- **NAME**：description`, typed by the heading above them), under a relationships
 * heading `**A 与 B**` and sentences naming two bold names (`**A** developed **B**.`).
 */
function bulletRecords(text: string, types: readonly string[]): MarkdownRecord[] {
  const out: MarkdownRecord[] = []
  const lines = text.split('\n')
  let section: Section
  let type: string | undefined
  lines.forEach((line, i) => {
    const heading = sectionOf(line, section)
    if (heading === 'type') {
      type = (
        HEADING.exec(line)!
          .slice(1)
          .find((g) => g !== undefined) ?? ''
      )
        .replace(EMPHASIS, '')
        .replace(/[:：]$/, '')
      return
    }
    if (heading !== undefined) {
      section = heading
      type = undefined
      return
    }
    if (!BULLET.test(line)) return
    const body = line.replace(BULLET, '').trim()
    const entity = /^\*\*([^*]+)\*\*\s*[(（]([^)）]+)[)）]\s*(?:[:：—–-]\s*(.*))?$/.exec(body)
    if (entity !== null) {
      const description = entity[3] ?? continuation(lines, i)
      out.push({ fields: { name: entity[1]!, type: entity[2]!, description }, raw: line.trim() })
      return
    }
    const arrow = arrowRecord(body)
    const relationships = arrow !== undefined ? [arrow] : section === 'relationships' ? sentenceRecords(body) : []
    if (relationships.length > 0) {
      for (const fields of relationships) out.push({ fields, raw: line.trim() })
      return
    }
    if (section === 'entities' && !/^\s/.test(line)) {
      const plain = body.replace(EMPHASIS, '')
      const labelled = LABELLED.exec(plain)
      // `1. 实体名称：李白` is a labelled line (labelledRecords), not a name; `地点：无` ("place: none")
      // and `Content Keywords: …` name nothing.
      if (labelled !== null && (roleOf(labelled[1]!) !== undefined || isNothingLabel(labelled))) return
      const item = entityItem(body, types)
      // A sentence under the heading ("- The text names three ports.") is prose, not a name.
      if (item === undefined || NOTHING.test(item.name) || item.name.length > 60 || /[.。!?！？]$/.test(item.name))
        return
      out.push({ fields: { ...item, ...(type === undefined ? {} : { type }) }, raw: line.trim() })
      return
    }
    // Outside any heading, only an item typed with a configured entity type: `* "paris" (geo)`.
    const typed = section === undefined && !/^\s/.test(line) ? entityItem(body, types) : undefined
    if (typed?.type !== undefined && typed.name.length <= 60) out.push({ fields: typed, raw: line.trim() })
  })
  return out
}

/**
 * A plain list item under an entities heading: `**NAME**：description`, `NAME (description)`,
 * `*NAME* (description)` or just `NAME`.
 */
function entityItem(body: string, types: readonly string[]): (Fields & { name: string }) | undefined {
  const bold = /^\*\*([^*]+)\*\*\s*(?:[:：—–-]\s*(.*))?$/.exec(body)
  if (bold !== null) return { name: bold[1]!.trim(), description: bold[2] ?? '' }
  const item = /^\*?([^(（:：*]+?)\*?\s*(?:[(（]([^)）]*)[)）])?\s*(?:[:：]\s*(.*))?$/.exec(
    body.replace(/\*\*|__|`/g, ''),
  )
  if (item === null || item[1]!.trim() === '') return undefined
  const name = item[1]!.trim()
  // `"paris" (geo)`: the parentheses hold a configured entity type, not a description.
  const typed = types.find((t) => t.toLowerCase() === item[2]?.trim().toLowerCase())
  if (typed !== undefined) return { name, type: typed, description: item[3] ?? '' }
  return { name, description: item[3] ?? item[2] ?? '' }
}

/** A `Label: value` item that names nothing: a keyword list, or a value saying "none" (`地点：无`). */
function isNothingLabel(labelled: RegExpExecArray): boolean {
  return /keyword|关键词/i.test(labelled[1]!) || NOTHING.test(labelled[2]!.trim())
}

/** The indented lines under a list item, joined: its description. */
function continuation(lines: readonly string[], at: number): string {
  const out: string[] = []
  for (let j = at + 1; j < lines.length && /^[ \t]+\S/.test(lines[j]!) && !BULLET.test(lines[j]!); j++)
    out.push(lines[j]!.trim())
  return out.join(' ')
}

/** `**A** → **B**: description (strength: 8)` or `**A → B**`. */
function arrowRecord(body: string): Fields | undefined {
  if (!body.startsWith('**')) return undefined
  const whole = /^\*\*([^*]+)\*\*\s*[:：—–-]?\s*(.*)$/.exec(body)
  const inside = whole === null ? undefined : whole[1]!.split(ARROW)
  if (inside !== undefined && inside.length === 2)
    return { source: inside[0]!, target: inside[1]!, description: whole![2]! }
  const ends = body.split(ARROW)
  if (ends.length !== 2) return undefined
  const target = /^\*\*([^*]+)\*\*\s*[:：—–-]?\s*(.*)$/.exec(ends[1]!)
  if (target === null) return undefined
  const strength = TRAILING_STRENGTH.exec(target[2]!)
  return {
    source: ends[0]!.replace(EMPHASIS, ''),
    target: target[1]!,
    description: strength === null ? target[2]! : target[2]!.slice(0, strength.index),
    ...(strength === null ? {} : { strength: strength[1]! }),
  }
}

// Between two bold objects of one sentence: `**B** and **C**`, `**B**, **C**`, `**B**、**C**`.
const OBJECT_LIST_JOIN = /^\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|、|和|与|及)\s*$/

/**
 * Under a relationships heading: `**A 与 B**` / `**A and B**`, or a sentence with two bold names;
 * `**A** is used for **B** and **C**` names one pair per object.
 */
function sentenceRecords(body: string): Fields[] {
  const pair = /^\*\*([^*]+?)\s+(?:与|和|and)\s+([^*]+)\*\*\s*[:：]?\s*(.*)$/.exec(body)
  if (pair !== null) return [{ source: pair[1]!, target: pair[2]!, description: pair[3]! }]
  const bold = [...body.matchAll(/\*\*([^*]+)\*\*/g)]
  if (bold.length < 2) return []
  const description = body.replace(EMPHASIS, '')
  const objects = [bold[1]!]
  for (let i = 2; i < bold.length; i++) {
    const previous = bold[i - 1]!
    const between = body.slice(previous.index + previous[0].length, bold[i]!.index)
    if (!OBJECT_LIST_JOIN.test(between)) break
    objects.push(bold[i]!)
  }
  return objects.map((object) => ({ source: bold[0]![1]!, target: object[1]!, description }))
}
