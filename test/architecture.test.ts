import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './support/shared.js'

const SRC = join(PROJECT_ROOT, 'src')

/** Which top-level areas of src/ each area may import (style guide, convention 1). */
const ALLOWED: Record<string, readonly string[]> = {
  // prompt-tune sits beside query, above index: it reuses the input loader, chunker, model registry and extraction parser.
  'prompt-tune': ['prompt-tune', 'config', 'index', 'graph', 'llm', 'storage', 'model', 'text', 'errors', 'logger'],
  cli: ['cli', 'config', 'index', 'query', 'prompt-tune', 'export', 'llm', 'storage', 'model', 'graph', 'text', 'errors', 'logger', 'version'],
  config: ['config', 'model', 'errors', 'llm', 'storage', 'logger'],
  index: ['index', 'config', 'graph', 'llm', 'storage', 'model', 'text', 'errors', 'logger', 'version'],
  query: ['query', 'config', 'graph', 'llm', 'storage', 'model', 'text', 'errors', 'logger', 'version'],
  // export is a leaf beside query: it reads the tables through storage and never runs the pipeline.
  export: ['export', 'config', 'storage', 'model', 'errors'],
  llm: ['llm', 'storage', 'model', 'errors', 'logger'],
  storage: ['storage', 'model', 'errors', 'logger'],
  graph: ['graph', 'errors'],
  model: ['model'],
  // Pure text functions (name normalisation, noun phrases) shared by indexing and search.
  text: ['text'],
  errors: [],
  logger: [],
  version: [],
  index_ts: ['config', 'index', 'query', 'llm', 'storage', 'model', 'graph', 'text', 'errors', 'logger', 'version'],
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : []
  })
}

function areaOf(file: string): string {
  const rel = relative(SRC, file)
  if (rel === 'index.ts') return 'index_ts'
  return rel.split('/')[0]!.replace(/\.ts$/, '')
}

describe('architecture', () => {
  it('imports only run in the allowed direction', () => {
    const violations: string[] = []
    for (const file of walk(SRC)) {
      const from = areaOf(file)
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
        const target = areaOf(join(file, '..', match[1]!).replace(/\.js$/, '.ts'))
        if (!(ALLOWED[from] ?? []).includes(target)) violations.push(`${relative(SRC, file)} → ${match[1]} (${from} may not import ${target})`)
      }
    }
    expect(violations).toEqual([])
  })

  it('keeps clocks and randomness out of operations and graph code', () => {
    const offenders = [...walk(join(SRC, 'index', 'operations')), ...walk(join(SRC, 'graph'))].filter((file) =>
      /Math\.random\(|Date\.now\(|new Date\(\)|randomUUID\(/.test(readFileSync(file, 'utf8')),
    )
    expect(offenders.map((f) => relative(SRC, f))).toEqual([])
  })
})
