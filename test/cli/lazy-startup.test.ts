// `graphrag --version` and `--help` must not load what the commands need when they run (LanceDB,
// Arrow/Parquet, the tokenizer, the NLP model, the OpenAI client, the server, the spinner, the file
// readers): a register…Command function declares options and imports its module inside the action.
// A module-resolution hook records every module the CLI loads; `npm run bench:startup` has the timings.
import { beforeAll, describe, expect, it } from 'vitest'
import { moduleTracer, type TraceCli } from '../support/module-trace.js'

const HEAVY =
  /node_modules\/(@lancedb|apache-arrow|parquet-wasm|tiktoken|wink-|openai|hono|@hono|ora|unpdf|mammoth|read-excel-file|htmlparser2|graphology|yaml|fflate)\/|^\/dist\/vendor\/(yaml|hyparquet|jsonrepair)\.js$/

let trace: TraceCli

/** Every file the CLI loads while running `args`. */
function modulesLoadedBy(args: readonly string[]): string[] {
  const run = trace(args)
  expect(run.status, run.stderr).toBe(0)
  return run.loaded
}

describe('CLI start-up loads only the command declarations', () => {
  beforeAll(async () => {
    trace = await moduleTracer()
  })

  it.each([['--version'], ['--help'], ['query', '--help']])('graphrag %s', (...args) => {
    const loaded = modulesLoadedBy(args)
    expect(loaded).toContain('/dist/cli/main.js')
    expect(loaded.filter((url) => HEAVY.test(url))).toEqual([])
    // Of our own code: the CLI's command declarations, the small leaves they need (the list of search
    // methods, and the did-you-mean of `query`'s renamed options with its edit distance) and commander
    // (bundled into one file by the build, src/vendor/README.md).
    const ours = loaded.filter((url) => url.startsWith('/dist/'))
    expect(
      ours.filter(
        (url) =>
          !/^\/dist\/(cli\/[a-z-]+\.js|errors\.js|version\.js|config\/(range|did-you-mean)\.js|text\/edit-distance\.js|query\/methods\.js|vendor\/commander\.js)$/.test(
            url,
          ),
      ),
    ).toEqual([])
    expect(loaded).toContain('/dist/vendor/commander.js')
    expect(loaded.filter((url) => url.startsWith('/node_modules/commander/'))).toEqual([])
  })
})
