// `npm run docs`: regenerates the reference blocks of docs/configuration.md (settings schema),
// docs/cli.md (commander commands), docs/http-api.md (/openapi.json) and docs/outputs.md (table
// declarations) from the built code.
// test/docs/generated.test.ts fails when a page is stale; after a merge, run this and commit.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderCliReference, renderHttpReference, withGeneratedBlock } from '../dist/cli/reference-doc.js'
import { renderConfigReference } from '../dist/config/reference-doc.js'
import { renderTableReference } from '../dist/model/reference-doc.js'
import { OPENAPI } from '../dist/server/openapi.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const pages = {
  'docs/configuration.md': renderConfigReference(),
  'docs/cli.md': renderCliReference(),
  'docs/http-api.md': renderHttpReference(OPENAPI),
  'docs/outputs.md': renderTableReference(),
}
for (const [file, block] of Object.entries(pages)) {
  const path = join(root, file)
  const before = readFileSync(path, 'utf8')
  const after = withGeneratedBlock(before, block)
  if (after !== before) writeFileSync(path, after)
  console.log(`${file}: ${after === before ? 'up to date' : 'regenerated'}`)
}
