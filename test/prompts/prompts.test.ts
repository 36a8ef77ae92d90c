/**
 * Contracts of the prompt templates in prompts/: which `{var}` placeholders each one takes, that
 * the `str.format`-style brace syntax is well formed, that JSON examples un-double to valid JSON of
 * the shape the parsers expect, and that the worked examples of the extraction prompts parse with
 * the reference record rules. The template text itself is free to change; these checks are not.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { get_encoding } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'
import { LLM_RELATIONS, validateEdges } from '../../src/index/operations/chunk-graph/validate-edges.js'
import { PROJECT_ROOT } from '../support/shared.js'

const PROMPTS_DIR = join(PROJECT_ROOT, 'prompts')

type JsonShape = 'report' | 'drift' | 'map' | 'edges'

interface PromptContract {
  /** Path under prompts/, with forward slashes. */
  file: string
  /** Exact set of `{var}` placeholders. */
  vars: readonly string[]
  /** The answer is JSON of this shape, and the prompt shows at least one example of it. */
  json?: JsonShape
  /** Placeholder holding the (long) input data; `restated` must appear again after it. */
  dataVar?: string
  /** Text that restates the output format after the data, so it is fresh when the model answers. */
  restated?: string
  /** Upper bound in cl100k tokens for the unformatted template. */
  maxTokens: number
}

const CONTRACTS: readonly PromptContract[] = [
  {
    file: 'extract_graph.txt',
    vars: ['entity_types', 'input_text'],
    dataVar: 'input_text',
    restated: '<|COMPLETE|>',
    maxTokens: 1800,
  },
  {
    file: 'summarize_descriptions.txt',
    vars: ['entity_name', 'description_list', 'max_length'],
    dataVar: 'description_list',
    restated: 'description text only',
    maxTokens: 500,
  },
  {
    file: 'extract_claims.txt',
    vars: ['entity_specs', 'claim_description', 'input_text'],
    dataVar: 'input_text',
    restated: '<|COMPLETE|>',
    maxTokens: 1800,
  },
  {
    file: 'community_report_graph.txt',
    vars: ['input_text', 'max_report_length'],
    json: 'report',
    dataVar: 'input_text',
    restated: '"findings"',
    maxTokens: 2000,
  },
  {
    file: 'community_report_text.txt',
    vars: ['input_text', 'max_report_length'],
    json: 'report',
    dataVar: 'input_text',
    restated: '"findings"',
    maxTokens: 2000,
  },
  {
    file: 'drift_search_system_prompt.txt',
    vars: ['response_type', 'context_data', 'global_query', 'followups'],
    json: 'drift',
    dataVar: 'context_data',
    restated: '"follow_up_queries"',
    maxTokens: 1000,
  },
  {
    file: 'drift_reduce_prompt.txt',
    vars: ['context_data', 'response_type'],
    dataVar: 'context_data',
    restated: '[Data:',
    maxTokens: 700,
  },
  {
    file: 'global_search_map_system_prompt.txt',
    vars: ['context_data', 'max_length'],
    json: 'map',
    dataVar: 'context_data',
    restated: '"points"',
    maxTokens: 900,
  },
  {
    file: 'global_search_reduce_system_prompt.txt',
    vars: ['report_data', 'response_type', 'max_length'],
    dataVar: 'report_data',
    restated: '[Data: Reports',
    maxTokens: 700,
  },
  { file: 'global_search_knowledge_system_prompt.txt', vars: [], maxTokens: 200 },
  {
    file: 'local_search_system_prompt.txt',
    vars: ['context_data', 'response_type'],
    dataVar: 'context_data',
    restated: '[Data:',
    maxTokens: 800,
  },
  {
    file: 'basic_search_system_prompt.txt',
    vars: ['context_data', 'response_type'],
    dataVar: 'context_data',
    restated: '[Data: Sources',
    maxTokens: 700,
  },
  {
    file: 'chunk_graph_edges.txt',
    vars: ['input_text'],
    json: 'edges',
    dataVar: 'input_text',
    restated: '"edges"',
    maxTokens: 800,
  },
  {
    file: 'graph_search_system_prompt.txt',
    vars: ['context_data', 'response_type'],
    dataVar: 'context_data',
    restated: '[Data: Sources',
    maxTokens: 700,
  },
  {
    file: 'question_gen_system_prompt.txt',
    vars: ['context_data', 'question_count'],
    dataVar: 'context_data',
    restated: '{question_count}',
    maxTokens: 600,
  },
  { file: 'internal/extract_graph_continue.txt', vars: [], maxTokens: 300 },
  { file: 'internal/extract_graph_loop.txt', vars: [], maxTokens: 100 },
  { file: 'internal/extract_claims_continue.txt', vars: [], maxTokens: 300 },
  { file: 'internal/extract_claims_loop.txt', vars: [], maxTokens: 100 },
]

const TUPLE = '<|>'
const RECORD = '##'
const COMPLETE = '<|COMPLETE|>'
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/

type Piece = { literal: string } | { field: string }

/**
 * Parses a template with Python `str.format` brace rules, restricted to bare identifiers:
 * `{{`/`}}` are literal braces, `{name}` is a placeholder, any other brace is an error.
 */
function parseTemplate(text: string): Piece[] {
  const pieces: Piece[] = []
  let literal = ''
  let i = 0
  while (i < text.length) {
    const ch = text[i]
    if (ch === '{' && text[i + 1] === '{') {
      literal += '{'
      i += 2
    } else if (ch === '}' && text[i + 1] === '}') {
      literal += '}'
      i += 2
    } else if (ch === '{') {
      const end = text.indexOf('}', i + 1)
      const name = end < 0 ? '' : text.slice(i + 1, end)
      if (!IDENT.test(name)) throw new Error(`bad placeholder at offset ${i}: ${JSON.stringify(text.slice(i, i + 30))}`)
      if (literal !== '') pieces.push({ literal })
      literal = ''
      pieces.push({ field: name })
      i = end + 1
    } else if (ch === '}') {
      throw new Error(`single '}' at offset ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 30), i + 1))}`)
    } else {
      literal += ch
      i += 1
    }
  }
  if (literal !== '') pieces.push({ literal })
  return pieces
}

function placeholders(text: string): Set<string> {
  const names = new Set<string>()
  for (const piece of parseTemplate(text)) if ('field' in piece) names.add(piece.field)
  return names
}

function format(text: string, values: Record<string, string>): string {
  return parseTemplate(text)
    .map((piece) => {
      if ('literal' in piece) return piece.literal
      const value = values[piece.field]
      if (value === undefined) throw new Error(`missing value for {${piece.field}}`)
      return value
    })
    .join('')
}

/** Every `{...}` block that starts a line, cut at its matching brace (JSON strings respected). */
function lineStartBraceBlocks(text: string): string[] {
  const blocks: string[] = []
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== '{' || (start > 0 && text[start - 1] !== '\n')) continue
    let depth = 0
    let inString = false
    for (let i = start; i < text.length; i++) {
      const ch = text[i]
      if (inString) {
        if (ch === '\\') i += 1
        else if (ch === '"') inString = false
      } else if (ch === '"') inString = true
      else if (ch === '{') depth += 1
      else if (ch === '}' && --depth === 0) {
        blocks.push(text.slice(start, i + 1))
        start = i
        break
      }
    }
  }
  return blocks
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkJsonShape(shape: JsonShape, value: unknown): void {
  expect(isRecord(value)).toBe(true)
  const obj = value as Record<string, unknown>
  if (shape === 'report') {
    expect(Object.keys(obj).sort()).toEqual(['findings', 'rating', 'rating_explanation', 'summary', 'title'])
    expect(typeof obj.title).toBe('string')
    expect(typeof obj.summary).toBe('string')
    expect(typeof obj.rating_explanation).toBe('string')
    expect(typeof obj.rating).toBe('number')
    expect(obj.rating).toBeGreaterThanOrEqual(0)
    expect(obj.rating).toBeLessThanOrEqual(10)
    expect(Array.isArray(obj.findings)).toBe(true)
    const findings = obj.findings as unknown[]
    expect(findings.length).toBeGreaterThan(0)
    for (const finding of findings) {
      expect(isRecord(finding)).toBe(true)
      const f = finding as Record<string, unknown>
      expect(Object.keys(f).sort()).toEqual(['explanation', 'summary'])
      expect(typeof f.summary).toBe('string')
      expect(typeof f.explanation).toBe('string')
    }
  } else if (shape === 'drift') {
    expect(Object.keys(obj).sort()).toEqual(['follow_up_queries', 'response', 'score'])
    expect(typeof obj.response).toBe('string')
    expect(Number.isInteger(obj.score)).toBe(true)
    expect(Array.isArray(obj.follow_up_queries)).toBe(true)
    for (const q of obj.follow_up_queries as unknown[]) expect(typeof q).toBe('string')
  } else if (shape === 'edges') {
    // The example must pass the workflow's own validation for a batch of units 1 and 2.
    expect(Object.keys(obj)).toEqual(['edges'])
    const units = [1, 2].map((n) => ({ id: `u${n}`, human_readable_id: n, document_id: 'd', text: '', entity_ids: [] }))
    const checked = validateEdges(obj.edges as unknown[], units, 'llm')
    expect(checked.dropped).toEqual([])
    expect(checked.edges.length).toBeGreaterThan(0)
  } else {
    expect(Object.keys(obj)).toEqual(['points'])
    expect(Array.isArray(obj.points)).toBe(true)
    const points = obj.points as unknown[]
    expect(points.length).toBeGreaterThan(0)
    for (const point of points) {
      expect(isRecord(point)).toBe(true)
      const p = point as Record<string, unknown>
      expect(typeof p.description).toBe('string')
      expect(p.description as string).toMatch(/\[Data: Reports \([^)]*\)\]/)
      expect(Number.isInteger(p.score)).toBe(true)
      expect(p.score).toBeGreaterThanOrEqual(0)
      expect(p.score).toBeLessThanOrEqual(100)
    }
  }
}

/** The worked-example answers: text after each "Output:" line up to and including the completion marker. */
function exampleOutputs(text: string): string[] {
  const outputs: string[] = []
  for (const part of text.split('\nOutput:\n').slice(1)) {
    const end = part.indexOf(COMPLETE)
    if (end >= 0) outputs.push(part.slice(0, end + COMPLETE.length))
  }
  return outputs
}

function read(file: string): string {
  return readFileSync(join(PROMPTS_DIR, file), 'utf8')
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? listFiles(full) : [relative(PROMPTS_DIR, full).split(sep).join('/')]
  })
}

const encoder = get_encoding('cl100k_base')
afterAll(() => encoder.free())

describe('template parser used by these checks', () => {
  it('follows str.format brace rules', () => {
    expect([...placeholders('a {x} {{literal}} {y}{x}')].sort()).toEqual(['x', 'y'])
    expect(format('{{"k": {v}}}', { v: '1' })).toBe('{"k": 1}')
    for (const bad of ['{', '}', 'a { b', '{x', 'x}', '{ x }', '{{x}', '{"k": 1}'])
      expect(() => parseTemplate(bad), bad).toThrow()
  })
})

describe('prompt inventory', () => {
  it('prompts/ holds exactly the files in the contract table', () => {
    expect(listFiles(PROMPTS_DIR).sort()).toEqual(CONTRACTS.map((c) => c.file).sort())
  })
})

describe.each(CONTRACTS)('$file', (contract) => {
  const path = join(PROMPTS_DIR, contract.file)

  it('exists and is UTF-8 text with LF line ends', () => {
    expect(existsSync(path)).toBe(true)
    const bytes = readFileSync(path)
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toThrow()
    const text = bytes.toString('utf8')
    expect(text.startsWith('\uFEFF')).toBe(false)
    expect(text).not.toContain('\r')
    expect(text.endsWith('\n')).toBe(true)
  })

  it('has only well-formed braces and exactly the expected placeholders', () => {
    const text = read(contract.file)
    expect(() => parseTemplate(text)).not.toThrow()
    expect([...placeholders(text)].sort()).toEqual([...contract.vars].sort())
  })

  it('formats with dummy values leaving no placeholder behind', () => {
    const values = Object.fromEntries(contract.vars.map((v) => [v, `<<dummy ${v}>>`]))
    const out = format(read(contract.file), values)
    for (const v of contract.vars) expect(out).toContain(`<<dummy ${v}>>`)
    expect(out).not.toMatch(/\{[A-Za-z_][A-Za-z0-9_]*\}/)
    // Extra arguments are ignored, as with Python's str.format.
    expect(format(read(contract.file), { ...values, unused_extra: 'x' })).toBe(out)
  })

  it('shows only valid JSON in blocks that start a line (after un-doubling braces)', () => {
    const values = Object.fromEntries(contract.vars.map((v) => [v, `<<dummy ${v}>>`]))
    const blocks = lineStartBraceBlocks(format(read(contract.file), values))
    if (contract.json !== undefined) expect(blocks.length).toBeGreaterThan(0)
    for (const block of blocks) {
      let parsed: unknown
      expect(() => (parsed = JSON.parse(block)), block).not.toThrow()
      if (contract.json !== undefined) checkJsonShape(contract.json, parsed)
    }
  })

  if (contract.dataVar !== undefined && contract.restated !== undefined) {
    const { dataVar, restated } = contract
    it(`restates the output format after {${dataVar}}`, () => {
      const text = read(contract.file)
      const at = text.indexOf(`{${dataVar}}`)
      expect(at).toBeGreaterThanOrEqual(0)
      expect(text.slice(at + dataVar.length + 2)).toContain(restated)
    })
  }

  it(`stays under ${contract.maxTokens} tokens`, () => {
    expect(encoder.encode(read(contract.file)).length).toBeLessThanOrEqual(contract.maxTokens)
  })
})

describe('extract_graph.txt record format', () => {
  const text = read('extract_graph.txt')

  it('spells out the delimiters literally', () => {
    for (const token of [TUPLE, RECORD, COMPLETE, '("entity"<|>', '("relationship"<|>']) expect(text).toContain(token)
  })

  it('has 2 or 3 worked examples, each parsing with the reference record rules', () => {
    const outputs = exampleOutputs(text)
    expect(outputs.length).toBeGreaterThanOrEqual(2)
    expect(outputs.length).toBeLessThanOrEqual(3)
    for (const output of outputs) {
      // A final "##" before the marker keeps the reference parser from gluing the marker onto
      // the last record (which would turn its strength into the 1.0 fallback).
      expect(output).toMatch(/\)\n##\n<\|COMPLETE\|>$/)
      const entities = new Set<string>()
      const relationships: string[][] = []
      for (const raw of output.split(RECORD)) {
        const record = raw.trim().replace(/^\(|\)$/g, '')
        if (record === '' || record === COMPLETE) continue
        const attrs = record.split(TUPLE)
        if (attrs[0] === '"entity"') {
          expect(attrs).toHaveLength(4)
          expect(attrs[1]).toBe(attrs[1].toUpperCase())
          expect(attrs[2]).toMatch(/^[A-Z]+$/)
          expect(attrs[3].trim().length).toBeGreaterThan(0)
          entities.add(attrs[1])
        } else {
          expect(attrs[0]).toBe('"relationship"')
          expect(attrs).toHaveLength(5)
          expect(attrs[4]).toMatch(/^(10|[1-9])$/)
          relationships.push(attrs)
        }
      }
      expect(entities.size).toBeGreaterThan(0)
      expect(relationships.length).toBeGreaterThan(0)
      // Relationships between unlisted entities would be dropped as orphans.
      for (const rel of relationships) {
        expect(entities).toContain(rel[1])
        expect(entities).toContain(rel[2])
      }
    }
  })
})

describe('extract_claims.txt record format', () => {
  const text = read('extract_claims.txt')

  it('spells out the delimiters, statuses and NONE literally', () => {
    for (const token of [TUPLE, RECORD, COMPLETE, 'TRUE', 'FALSE', 'SUSPECTED', 'NONE', 'YYYY-MM-DDTHH:MM:SS']) {
      expect(text).toContain(token)
    }
  })

  it('has worked examples that parse with the reference claim rules into complete rows', () => {
    const outputs = exampleOutputs(text)
    expect(outputs.length).toBeGreaterThanOrEqual(1)
    const date = /^(NONE|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})$/
    for (const output of outputs) {
      const pieces = output.trim().slice(0, -COMPLETE.length).split(RECORD)
      for (const raw of pieces) {
        // The reference parser turns every piece, even an empty one, into a row.
        const claim = raw.trim().replace(/^\(/, '').replace(/\)$/, '')
        expect(claim).not.toBe('')
        const fields = claim.split(TUPLE).map((f) => f.trim())
        expect(fields).toHaveLength(8)
        const [subject, object, type, status, start, end, description, source] = fields
        expect(subject).toBe(subject.toUpperCase())
        expect(object).toBe(object.toUpperCase())
        expect(type).toBe(type.toUpperCase())
        expect(['TRUE', 'FALSE', 'SUSPECTED']).toContain(status)
        expect(start).toMatch(date)
        expect(end).toMatch(date)
        expect(description.length).toBeGreaterThan(0)
        expect(source.length).toBeGreaterThan(0)
      }
    }
  })
})

describe('built-in gleaning prompts', () => {
  it.each(['internal/extract_graph_loop.txt', 'internal/extract_claims_loop.txt'])(
    '%s asks for a single Y or N',
    (file) => {
      const text = read(file)
      expect(text).toMatch(/single letter/i)
      expect(text).toMatch(/\bY\b/)
      expect(text).toMatch(/\bN\b/)
    },
  )

  it('continue prompts restate the record format', () => {
    const graph = read('internal/extract_graph_continue.txt')
    for (const token of ['("entity"<|>', '("relationship"<|>', RECORD, COMPLETE]) expect(graph).toContain(token)
    // Gleaning replies are concatenated to the previous reply without a separator; a leading "##"
    // keeps their first record from being glued to the previous "<|COMPLETE|>" and lost.
    expect(graph).toContain('Start your reply with a line containing only ##')
    const claims = read('internal/extract_claims_continue.txt')
    for (const token of [TUPLE, RECORD, COMPLETE, 'SUSPECTED']) expect(claims).toContain(token)
  })
})

describe('query prompts', () => {
  it('the knowledge add-on asks for the [LLM: verify] tag', () => {
    expect(read('global_search_knowledge_system_prompt.txt')).toContain('[LLM: verify]')
  })

  it.each([
    ['local_search_system_prompt.txt', 'Sources'],
    ['basic_search_system_prompt.txt', 'Sources'],
    ['graph_search_system_prompt.txt', 'Sources'],
    ['drift_search_system_prompt.txt', 'Sources'],
    ['global_search_map_system_prompt.txt', 'Reports'],
    ['global_search_reduce_system_prompt.txt', 'Reports'],
    ['community_report_graph.txt', 'Relationships'],
    ['community_report_text.txt', 'Sources'],
  ])('%s shows the [Data: %s (ids, +more)] citation style', (file, dataset) => {
    const text = read(file)
    expect(text).toContain(`[Data: ${dataset} (`)
    expect(text).toContain('+more')
    expect(text).toMatch(/at most 5 ids/)
  })

  it('community_report_graph.txt explains the optional Claims and Reports tables', () => {
    const text = read('community_report_graph.txt')
    expect(text).toContain('-----Entities-----')
    expect(text).toContain('-----Claims-----')
    expect(text).toContain('-----Reports----- (may be present)')
  })

  it('community_report_text.txt names the SOURCES table', () => {
    expect(read('community_report_text.txt')).toContain('-----SOURCES-----')
  })

  it('chunk_graph_edges.txt names every relation the workflow accepts', () => {
    const text = read('chunk_graph_edges.txt')
    for (const relation of LLM_RELATIONS) expect(text).toContain(`- ${relation}:`)
  })

  it('graph_search_system_prompt.txt explains the graph columns of the Sources table', () => {
    for (const column of ['reached_from', 'relation', 'link'])
      expect(read('graph_search_system_prompt.txt')).toContain(column)
  })

  it('question_gen_system_prompt.txt asks for a "- " bulleted list', () => {
    expect(read('question_gen_system_prompt.txt')).toContain('starting with "- "')
  })
})
