// The package entry: `import … from '@graphrag-node/graphrag'` resolves through package.json exports to the built src/api.ts.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import * as api from '../src/api.js'
import { PROJECT_ROOT } from './support/shared.js'

describe('package entry', () => {
  it("exports from '@graphrag-node/graphrag' exactly what src/api.ts exports", () => {
    // Self-reference by package name goes through package.json "exports", as an installed package would.
    const script =
      "const m = await import('@graphrag-node/graphrag'); process.stdout.write(JSON.stringify(Object.keys(m).sort()))"
    const keys = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' }),
    ) as string[]
    expect(keys).toEqual(Object.keys(api).sort())
    expect(keys).toEqual(expect.arrayContaining(['runIndex', 'planIndex', 'loadConfig', 'initProject', 'VERSION']))
  })
})
