import { describe, expect, it } from 'vitest'
import { handleInterrupts } from '../../src/cli/interrupt-handler.js'
import { resumeHint } from '../../src/cli/interruptible-index.js'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'

describe('the resume hint after Ctrl-C', () => {
  it('says to run the same command when that command resumes', () => {
    expect(resumeHint(['index', '--root', 'proj'], false)).toBe('run the same command to resume')
  })

  it('names the command without --no-resume, which would start again from the first workflow', () => {
    expect(resumeHint(['index', '--root', 'my proj', '--no-resume', '-m', 'standard'], false)).toBe(
      "run `graphrag index --root 'my proj' -m standard` to resume",
    )
  })

  it('under --no-cache says that the interrupted workflow starts over', () => {
    const hint = resumeHint(['update', '--root', 'p', '--no-cache'], true)
    expect(hint).toMatch(/^run `graphrag update --root p --no-cache` to resume \(finished workflows are kept; /)
    expect(hint).toContain('starts over')
  })

  it('is the end of the closing line', () => {
    const handler = handleInterrupts(SILENT_REPORTER, () => undefined as never)
    try {
      handler.reporter.pipelineStart(['a', 'b'], ['a'], undefined)
      expect(handler.summary(resumeHint(['index', '--no-resume'], false))).toBe(
        'interrupted: 1 of 2 workflows done; run `graphrag index` to resume',
      )
    } finally {
      handler.dispose()
    }
  })
})
