// Chunking one very large document must not hold the event loop for the whole document: the
// progress line and a second Ctrl-C (which exits at once) need it between text units too.
import { describe, expect, it } from 'vitest'
import { createBaseTextUnits } from '../../../src/index/workflows/create_base_text_units.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import type { WorkflowContext } from '../../../src/index/workflow.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

describe('create_base_text_units', () => {
  it('gives the event loop back inside a single long document, not only between documents', async () => {
    // ~3 MB in one document: far more than the 50 ms the workflow works between breaths.
    const words = Array.from({ length: 500_000 }, (_, i) => `word${i % 9973}`).join(' ')
    const input = await testdir({ 'one.txt': words })
    const t = await createTestContext({
      settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(input)}\nchunking:\n  size: 200\n  overlap: 20\n`,
    })
    await loadInputDocuments.run(t.ctx)
    const events: string[] = []
    const ctx: WorkflowContext = {
      ...t.ctx,
      progress(label, total) {
        const inner = t.ctx.progress(label, total)
        // Scheduled as chunking starts: it runs at the first breath the workflow takes.
        setImmediate(() => events.push('event loop'))
        return {
          tick: (n) => {
            events.push('document chunked')
            inner.tick(n)
          },
          done: () => inner.done(),
        }
      },
    }
    await createBaseTextUnits.run(ctx)
    expect(events).toEqual(['event loop', 'document chunked'])
    expect(t.progress.find((p) => p.label === 'chunking documents')).toMatchObject({ done: 1, total: 1 })
  })
})
