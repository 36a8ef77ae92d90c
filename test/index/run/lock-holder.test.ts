import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SILENT_REPORTER } from '../../../src/index/run/reporter.js'
import { runIndex, type RunIndexOptions } from '../../../src/index/run/runner.js'
import { runUpdate } from '../../../src/index/run/update.js'
import { generationPaths } from '../../../src/storage/generations.js'
import { lockPathFor } from '../../../src/storage/run-lock.js'
import { testdir } from '../../support/testdir.js'

const SETTINGS = 'method: fast\nworkflows: [load_input_documents, create_base_text_units, create_final_documents]\n'

/** The command recorded in the lock while the run holds it (what another run's "locked" message names). */
async function holder(run: (options: RunIndexOptions) => Promise<unknown>, root: string, command?: string) {
  let seen = ''
  const lock = lockPathFor(generationPaths(join(root, 'output')).runDir)
  const reporter = {
    ...SILENT_REPORTER,
    pipelineStart: () => {
      seen = JSON.parse(readFileSync(lock, 'utf8')).command
    },
  }
  await run({ root, skipValidation: true, reporter, ...(command === undefined ? {} : { command }) })
  return seen
}

describe('the lock names the command that holds it', () => {
  it('graphrag index, graphrag update, or what the caller says (graphrag serve)', async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS, 'input/a.txt': 'Kettle Harbour at dawn.' })
    expect(await holder(runIndex, root)).toBe('graphrag index')
    await writeFile(join(root, 'input', 'b.txt'), 'The ferry left Kettle Harbour.')
    expect(await holder(runUpdate, root)).toBe('graphrag update')
    expect(await holder(runIndex, root, 'graphrag serve (index job)')).toBe('graphrag serve (index job)')
  })
})
