/** `graphrag query` run in process (spawning the CLI costs seconds on a loaded machine): what went to stdout and stderr. */
import { runQueryCommand, type QueryCommandFlags } from '../../src/query/command.js'
import type { SearchMethod } from '../../src/query/index.js'

/** The CLI's defaults, with `--json` on unless `extra` says otherwise. */
export async function runQueryInProcess(
  root: string,
  question: string,
  method: SearchMethod,
  extra: Partial<QueryCommandFlags> = {},
): Promise<{ stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const flags: QueryCommandFlags = {
    method,
    root,
    communityLevel: 2,
    dynamicCommunitySelection: false,
    responseType: 'Multiple Paragraphs',
    streaming: false,
    json: true,
    verbose: false,
    ...extra,
  }
  await runQueryCommand(question, flags, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  })
  return { stdout, stderr }
}
