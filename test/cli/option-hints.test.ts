/** `graphrag query --query "…"` / `-q "…"` from older tutorials: the usage error says the question is the argument. */
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'

const HINT = '(Did you mean graphrag query "<question>"? The question is the command\'s argument, not an option'

describe('options of older tutorials', () => {
  it('query --query and -q name the question argument; other unknown options keep commander’s own hint', async () => {
    for (const flag of ['--query', '-q', '--querry', '--query=who']) {
      const run = await runCli(['query', '--root', '.', flag, 'Who keeps the records?'])
      expect(run.code, flag).toBe(1)
      expect(run.stderr, flag).toContain(`error: unknown option '${flag}'\n${HINT}`)
    }
    const short = await runCliInProcess(['query', '-x', 'Who?'])
    expect(short.stderr).toBe("error: unknown option '-x'\n")
    const typo = await runCliInProcess(['query', '--metod', 'local', 'Who?'])
    expect(typo.stderr).toBe("error: unknown option '--metod'\n(Did you mean --method?)\n")
    // Only query: elsewhere --query is not a question.
    const index = await runCliInProcess(['index', '--query', 'x'])
    expect(index.stderr).toBe("error: unknown option '--query'\n")
  })
})
