/** The work of `graphrag eval` behind its flags: load settings and questions, run, print, write the report, apply the gates. */
import { writeFileSync } from 'node:fs'
import { basename, extname, resolve } from 'node:path'
import { loadConfig } from '../config/index.js'
import { InputError } from '../errors.js'
import { SEARCH_METHODS, type SearchMethod } from '../query/methods.js'
import { checkGates, describeFailure, EXIT_BELOW_THRESHOLD, parseGate } from './fail-under.js'
import { createJudge } from './judge.js'
import { parseFieldMap, readQuestions } from './questions.js'
import { htmlReport, markdownReport } from './report.js'
import { type EvalResult, type EvalTarget, runEval } from './run.js'
import { aaRows, allTables, renderText } from './tables.js'

export interface EvalCommandFlags {
  root?: string[]
  config?: string[]
  questions?: string
  methods?: SearchMethod[]
  field?: string[]
  topK?: number
  pairwise: boolean
  concurrency: number
  json: boolean
  report?: string
  failUnder?: string[]
  generate?: number
  output?: string
  verbose: boolean
}

interface Out {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** Every root with every settings file: one target each, named by the root (and file) and made unique. */
function loadTargets(flags: EvalCommandFlags): { targets: EvalTarget[]; keyOrigins: Readonly<Record<string, string>> } {
  const roots = flags.root ?? ['.']
  const configs: Array<string | undefined> = flags.config ?? [undefined]
  const seen = new Map<string, number>()
  let keyOrigins: Readonly<Record<string, string>> = {}
  const targets = roots.flatMap((root) =>
    configs.map((configFile) => {
      const loaded = loadConfig({ root, configFile })
      keyOrigins = { ...loaded.apiKeyOrigins, ...keyOrigins }
      const name = basename(resolve(root)) + (configs.length > 1 && configFile ? `:${basename(configFile)}` : '')
      const n = (seen.get(name) ?? 0) + 1
      seen.set(name, n)
      const settings =
        flags.topK === undefined
          ? loaded.settings
          : { ...loaded.settings, eval: { ...loaded.settings.eval, top_k: flags.topK } }
      return { label: n === 1 ? name : `${name}#${n}`, settings }
    }),
  )
  return { targets, keyOrigins }
}

export async function runEvalCommand(flags: EvalCommandFlags, out: Out): Promise<number> {
  const gates = (flags.failUnder ?? []).map(parseGate)
  const { targets, keyOrigins } = loadTargets(flags)
  if (flags.generate !== undefined) {
    const { writeGeneratedQuestions } = await import('./generate-command.js')
    const judge = createJudge(targets[0]!.settings, keyOrigins)
    out.stdout.write(await writeGeneratedQuestions(flags.generate, flags.output, targets[0]!, judge))
    return 0
  }
  if (flags.questions === undefined)
    throw new InputError('graphrag eval needs --questions FILE (or --generate N --output FILE)')
  const questions = readQuestions(flags.questions, parseFieldMap(flags.field ?? []))
  const judge = createJudge(targets[0]!.settings, keyOrigins)
  const result = await runEval({
    targets,
    methods: flags.methods ?? SEARCH_METHODS,
    questions,
    ...(judge === undefined ? {} : { judge }),
    pairwise: flags.pairwise,
    concurrency: flags.concurrency,
    ...(flags.verbose ? { progress: (line: string) => out.stderr.write(`eval: ${line}\n`) } : {}),
  })
  print(result, flags.json, out)
  if (flags.report !== undefined) writeReport(flags.report, result)
  const failures = checkGates(gates, result.systems)
  for (const f of failures) out.stderr.write(`eval: FAIL ${describeFailure(f)}\n`)
  return failures.length > 0 ? EXIT_BELOW_THRESHOLD : 0
}

function print(result: EvalResult, json: boolean, out: Out): void {
  if (json) {
    out.stdout.write(`${JSON.stringify({ ...result, aaCheck: aaRows(result) }, null, 2)}\n`)
    return
  }
  out.stdout.write(`${allTables(result).map(renderText).join('\n\n')}\n`)
  for (const [target, items] of Object.entries(result.unreachable))
    if (items.length > 0)
      out.stdout.write(
        `\nnote: ${items.length} gold evidence item(s) match no text unit or document of ${target}, so no method can recall them (first: ${items[0]!.questionId} "${items[0]!.evidence.slice(0, 60)}")\n`,
      )
  const errors = result.answers.filter((a) => a.error !== undefined)
  for (const [system, message] of new Map(errors.map((a) => [a.system, a.error!])))
    out.stdout.write(`\n${system}: ${errors.filter((a) => a.system === system).length} questions failed: ${message}\n`)
  if (result.judge !== null)
    out.stdout.write(
      `\njudge ${result.judge.model}: ${result.judge.calls} calls${result.judge.costUsd === null ? '' : `, $${result.judge.costUsd.toFixed(4)}`}, ${result.judge.unusable} unusable judgements\n`,
    )
}

function writeReport(path: string, result: EvalResult): void {
  const html = ['.html', '.htm'].includes(extname(path).toLowerCase())
  writeFileSync(path, html ? htmlReport(result) : markdownReport(result))
}
