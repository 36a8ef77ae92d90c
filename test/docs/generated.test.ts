// The reference pages are generated from the code (settings schema, commander commands, /openapi.json)
// and must match it: after a change or a merge that adds keys, commands or routes, run `npm run docs`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderCliReference, renderHttpReference, withGeneratedBlock } from '../../src/cli/reference-doc.js'
import { renderConfigReference } from '../../src/config/reference-doc.js'
import { renderTableReference } from '../../src/model/reference-doc.js'
import { OPENAPI } from '../../src/server/openapi.js'
import { PROJECT_ROOT } from '../support/shared.js'

const PAGES: Array<[file: string, render: () => string]> = [
  ['docs/configuration.md', renderConfigReference],
  ['docs/cli.md', renderCliReference],
  ['docs/http-api.md', () => renderHttpReference(OPENAPI)],
  ['docs/outputs.md', renderTableReference],
]

describe('generated reference pages', () => {
  it.each(PAGES)('%s is up to date (else run `npm run docs` and commit)', (file, render) => {
    const page = readFileSync(join(PROJECT_ROOT, file), 'utf8')
    const fresh = withGeneratedBlock(page, render())
    expect(page === fresh, `${file} is stale: run \`npm run docs\` to regenerate it, then commit`).toBe(true)
  })

  it('cover every settings section, every command and every route', () => {
    const config = renderConfigReference()
    for (const key of [
      '`completion_models.<id>.api_base`',
      '`input.type`',
      '`hybrid_search.rrf_k`',
      '### local_search',
    ])
      expect(config).toContain(key)
    const cli = renderCliReference()
    for (const command of ['init', 'index', 'update', 'query', 'serve', 'prompt-tune', 'export', 'diagnostics'])
      expect(cli).toContain(`## graphrag ${command}\n`)
    expect(cli).toContain('`--apply`')
    const http = renderHttpReference(OPENAPI)
    expect(http).toContain('### POST /cache/clear')
    expect(http).not.toContain('### GET /cache/clear')
    expect(renderTableReference()).toContain('### entities.parquet\n')
  })

  it('a stale block is replaced, not appended to', () => {
    const page = withGeneratedBlock('# Title\n\nIntro.\n', 'old\n')
    expect(withGeneratedBlock(page, 'new\n')).toBe(page.replace('old', 'new'))
  })
})
