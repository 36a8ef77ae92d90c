/**
 * docs/configuration.md's key reference, rendered from the same declarations that validate
 * settings.yaml (`npm run docs` writes it; a test fails when the page is stale), so it cannot drift.
 */
import type { Declaration } from './fields.js'
import { SETTINGS } from './schema.js'

/** A default as it would be written in settings.yaml, on one line. */
function yamlValue(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return value === '' ? '""' : value
  return JSON.stringify(value)
}

/** A Markdown table cell: pipes escaped, on one line (shared by the generated reference pages). */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

interface Row {
  key: string
  declaration: Declaration
}

/** Every leaf key under `prefix`, in declaration order; sections and id mappings are walked into. */
function leaves(prefix: string, shape: Readonly<Record<string, Declaration>>): Row[] {
  return Object.entries(shape).flatMap(([name, declaration]) => {
    const key = prefix === '' ? name : `${prefix}.${name}`
    if (declaration.shape) return leaves(key, declaration.shape)
    if (declaration.entries) return leaves(`${key}.<id>`, declaration.entries)
    return [{ key, declaration }]
  })
}

export function renderConfigReference(): string {
  const top = SETTINGS.shape as Readonly<Record<string, Declaration>>
  const out: string[] = []
  const scalars = Object.entries(top).filter(([, d]) => !d.shape && !d.entries)
  const sections = Object.entries(top).filter(([, d]) => d.shape || d.entries)
  const table = (rows: Row[]) => [
    '| key | default | description |',
    '|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.key}\` | \`${cell(yamlValue(r.declaration.default))}\` | ${cell(r.declaration.description)}${
          r.declaration.example === undefined ? '' : ` Example: \`${cell(yamlValue(r.declaration.example))}\`.`
        } |`,
    ),
  ]
  out.push('### Top-level keys', '', ...table(scalars.map(([key, declaration]) => ({ key, declaration }))), '')
  for (const [name, declaration] of sections) {
    out.push(`### ${name}`, '')
    if (declaration.description) out.push(cell(declaration.description), '')
    const rows = declaration.shape ? leaves(name, declaration.shape) : leaves(`${name}.<id>`, declaration.entries!)
    out.push(...table(rows), '')
  }
  return `${out.join('\n').trimEnd()}\n`
}
