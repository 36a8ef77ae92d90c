import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './support/shared.js'

const SRC = join(PROJECT_ROOT, 'src')

/** Which top-level areas of src/ each area may import (style guide, convention 1). */
const ALLOWED: Record<string, readonly string[]> = {
  // prompt-tune sits beside query, above index: it reuses the input loader, chunker, model registry and extraction parser.
  'prompt-tune': [
    'prompt-tune',
    'vendor',
    'config',
    'index',
    'graph',
    'llm',
    'storage',
    'model',
    'prompts',
    'text',
    'errors',
    'logger',
  ],
  cli: [
    'vendor',
    'cli',
    'config',
    'index',
    'query',
    'prompt-tune',
    'export',
    'server',
    'eval',
    'llm',
    'storage',
    'model',
    'graph',
    'prompts',
    'text',
    'errors',
    'logger',
    'version',
  ],
  config: ['vendor', 'config', 'model', 'errors', 'llm', 'storage', 'prompts', 'text', 'logger'],
  index: ['index', 'config', 'graph', 'llm', 'storage', 'model', 'prompts', 'text', 'errors', 'logger', 'version'],
  // server sits beside cli: the HTTP API over the same library functions (and export's graph data for the web UI).
  server: [
    'server',
    'config',
    'export',
    'index',
    'query',
    'llm',
    'storage',
    'model',
    'prompts',
    'text',
    'errors',
    'logger',
    'version',
  ],
  query: ['query', 'config', 'graph', 'llm', 'storage', 'model', 'prompts', 'text', 'errors', 'logger', 'version'],
  // eval sits above query: it runs searches, judges their answers, reads the index tables (and CSV with the input reader); only cli imports it.
  eval: ['eval', 'query', 'config', 'index', 'llm', 'storage', 'model', 'text', 'errors'],
  // export is a leaf beside query: it reads the tables through storage and never runs the pipeline.
  export: ['export', 'config', 'storage', 'model', 'errors'],
  llm: ['vendor', 'llm', 'storage', 'model', 'text', 'errors', 'logger'],
  storage: ['vendor', 'storage', 'model', 'errors', 'logger'],
  graph: ['graph', 'text', 'errors'],
  prompts: ['prompts', 'errors'],
  // Pure text functions (Python-compatible names, name normalisation, noun phrases) shared by indexing and search.
  text: ['text'],
  model: ['model'],
  // The web UI runs in the browser: it talks to the server over HTTP and reuses only the graph viewer.
  ui: ['ui', 'export'],
  // One-file bundles of packages (src/vendor/README.md): they import nothing of ours.
  vendor: [],
  errors: [],
  logger: [],
  version: [],
  api: [
    'config',
    'index',
    'query',
    'llm',
    'storage',
    'model',
    'graph',
    'prompts',
    'text',
    'errors',
    'logger',
    'version',
  ],
}

/**
 * Inside src/index/: operations are pure and see only each other; workflows see the contract,
 * operations and input; planning sees those; only the run machinery sees everything.
 */
const INDEX_ALLOWED: Record<string, readonly string[]> = {
  operations: ['operations'],
  input: ['input'],
  workflow: ['workflow', 'operations'],
  workflows: ['workflows', 'workflow', 'operations', 'input'],
  plan: ['plan', 'workflows', 'workflow', 'operations', 'input'],
  run: ['run', 'plan', 'workflows', 'workflow', 'operations', 'input'],
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(path) ? [path] : []
  })
}

function areaOf(file: string): string {
  const rel = relative(SRC, file)
  return rel.split('/')[0]!.replace(/\.tsx?$/, '')
}

/** The folder of src/index/ a file sits in (`workflow` for the contract file itself). */
function indexAreaOf(file: string): string {
  return relative(join(SRC, 'index'), file).split('/')[0]!.replace(/\.ts$/, '')
}

/**
 * The relative modules a source file imports: static `from '…'`, side-effect `import '…'` and
 * dynamic `import('…')` (a lazy import crosses a layer as much as a static one).
 */
function relativeImports(text: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s+|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g
  return [...text.matchAll(pattern)].map((m) => m[1]!)
}

/** The imports of one file that go against ALLOWED. */
function directionViolations(file: string, text: string): string[] {
  const from = areaOf(file)
  return relativeImports(text).flatMap((spec) => {
    const target = areaOf(join(file, '..', spec).replace(/\.js$/, '.ts'))
    return (ALLOWED[from] ?? []).includes(target)
      ? []
      : [`${relative(SRC, file)} → ${spec} (${from} may not import ${target})`]
  })
}

describe('architecture', () => {
  it('imports only run in the allowed direction', () => {
    const violations = walk(SRC).flatMap((file) => directionViolations(file, readFileSync(file, 'utf8')))
    expect(violations).toEqual([])
  })

  it('counts dynamic and side-effect imports too: an upward import() is a violation', () => {
    const file = join(SRC, 'storage', 'example.ts')
    expect(directionViolations(file, "const { main } = await import('../cli/main.js')")).toEqual([
      'storage/example.ts → ../cli/main.js (storage may not import cli)',
    ])
    expect(directionViolations(file, "import '../server/app.js'")).toHaveLength(1)
    expect(directionViolations(file, "const x = await import(\n  './object/remote.js'\n)")).toEqual([])
  })

  it('keeps src/index/ layered: operations, input, contract, workflows, plan, run', () => {
    const violations: string[] = []
    const indexFiles = walk(join(SRC, 'index'))
    expect(new Set(indexFiles.map(indexAreaOf))).toEqual(new Set(Object.keys(INDEX_ALLOWED)))
    for (const file of indexFiles) {
      const from = indexAreaOf(file)
      for (const spec of relativeImports(readFileSync(file, 'utf8'))) {
        const target = join(file, '..', spec).replace(/\.js$/, '.ts')
        if (areaOf(target) !== 'index') continue
        const to = indexAreaOf(target)
        if (!INDEX_ALLOWED[from]!.includes(to))
          violations.push(`${relative(SRC, file)} → ${spec} (index/${from} may not import index/${to})`)
      }
    }
    expect(violations).toEqual([])
  })

  it('keeps src/text/ a leaf: nothing of ours outside it, and no package but the noun-phrase model and the HTML entity decoder', () => {
    const text = join(SRC, 'text')
    const imports = walk(text).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((m) => ({ file, spec: m[1]! })),
    )
    const outside = imports.filter(
      ({ file, spec }) => spec.startsWith('.') && relative(text, join(dirname(file), spec)).startsWith('..'),
    )
    expect(outside).toEqual([])
    const packages = imports
      .map(({ spec }) => spec)
      .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:'))
    expect([...new Set(packages)].sort()).toEqual(['entities/decode', 'wink-eng-lite-web-model', 'wink-nlp'])
  })

  it('keeps src/ui/ browser-only: of export it imports only the viewer, and no node: module anywhere', () => {
    const browserSide = /^export\/(viewer\/|viewer-data\.ts$|viewer-style\.ts$)/
    const violations = walk(join(SRC, 'ui')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].flatMap(({ 1: spec }) => {
        if (spec!.startsWith('node:')) return [`${relative(SRC, file)} → ${spec}`]
        if (!spec!.startsWith('.')) return []
        const target = relative(SRC, join(dirname(file), spec!)).replace(/\.js$/, '.ts')
        return areaOf(join(SRC, target)) === 'export' && !browserSide.test(target)
          ? [`${relative(SRC, file)} → ${spec}`]
          : []
      }),
    )
    expect(violations).toEqual([])
  })

  it('keeps the storage SDKs inside src/storage/object/: the rest of graphrag sees object storage through its interface', () => {
    const objectDir = join(SRC, 'storage', 'object')
    const offenders = walk(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+'(@azure\/storage-blob|@aws-sdk\/client-s3|@smithy\/[^']+)'/g)]
        .filter(() => relative(objectDir, file).startsWith('..'))
        .map((m) => `${relative(SRC, file)} → ${m[1]}`),
    )
    expect(offenders).toEqual([])
  })

  it('loads the vendored packages only through src/vendor/, so the built CLI gets the one-file bundles', () => {
    const vendorDir = join(SRC, 'vendor')
    const vendored = readdirSync(vendorDir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [...readFileSync(join(vendorDir, f), 'utf8').matchAll(/from\s+'([^'.][^']*)'/g)].map((m) => m[1]!),
      )
    expect(vendored.sort()).toEqual(['commander', 'hyparquet', 'jsonrepair', 'yaml'])
    const offenders = walk(SRC)
      .filter((file) => relative(vendorDir, file).startsWith('..'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)]
          .filter((m) => vendored.includes(m[1]!))
          .map((m) => `${relative(SRC, file)} → ${m[1]}`),
      )
    expect(offenders).toEqual([])
  })

  it('keeps clocks and randomness out of operations and graph code', () => {
    const offenders = [...walk(join(SRC, 'index', 'operations')), ...walk(join(SRC, 'graph'))].filter((file) =>
      /Math\.random\(|Date\.now\(|new Date\(\)|randomUUID\(/.test(readFileSync(file, 'utf8')),
    )
    expect(offenders.map((f) => relative(SRC, f))).toEqual([])
  })
})
