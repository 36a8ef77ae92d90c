/** `graphrag eval`: scores the search methods on a question file (retrieval, judged answers, cost, latency) and gates CI on them. */
import type { Command } from 'commander'
import type { EvalCommandFlags } from '../eval/command.js'
import { InvalidArgumentError } from '../vendor/commander.js'
import { SEARCH_METHODS, type SearchMethod } from '../query/methods.js'
import { wholeNumber } from './arguments.js'

/** A comma-separated list of search methods, each one of SEARCH_METHODS. */
function methodList(value: string): SearchMethod[] {
  const methods = value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '')
  const unknown = methods.filter((m) => !(SEARCH_METHODS as readonly string[]).includes(m))
  if (methods.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(`expected a comma-separated list of ${SEARCH_METHODS.join(', ')}`)
  return [...new Set(methods)] as SearchMethod[]
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description(
      'Score the search methods on questions with gold answers/evidence: retrieval recall, judged answer quality, win rates, cost and latency.',
    )
    .option('-r, --root <dir>', 'project root; repeat to compare indexes', collect)
    .option('-c, --config <file>', 'settings file; repeat to compare settings variants of one root', collect)
    .option(
      '-q, --questions <file>',
      'questions: .csv, .json or .jsonl with question, answer, evidence, type, assertions',
    )
    .option('-m, --methods <list>', `comma-separated search methods (default: ${SEARCH_METHODS.join(',')})`, methodList)
    .option(
      '--field <our=theirs>',
      'map a field of the file to ours, e.g. question=query (repeatable; a.b reaches into objects)',
      collect,
    )
    .option('--top-k <n>', 'passages counted by evidence recall@k (default: eval.top_k)', wholeNumber(1, 1_000_000))
    .option('--no-pairwise', 'skip the pairwise win-rate judgements (the most judge calls)')
    .option('--concurrency <n>', 'judge calls in flight at once', wholeNumber(1, 1000), 8)
    .option('--json', 'print the result as JSON instead of tables', false)
    .option('--report <file>', 'write a report with plots: Markdown (.md) or a self-contained HTML page (.html)')
    .option(
      '--fail-under <gate>',
      'exit with code 3 when a score is below the bound (latency and cost: above it): metric=value or method.metric=value (repeatable)',
      collect,
    )
    .option(
      '--generate <n>',
      'write N questions drawn from the index to --output instead of evaluating',
      wholeNumber(1, 100_000),
    )
    .option('-o, --output <file>', 'where --generate writes its questions (.json or .jsonl)')
    .option('-v, --verbose', 'print progress on stderr', false)
    .action(async (flags: EvalCommandFlags) => {
      const { runEvalCommand } = await import('../eval/command.js')
      process.exitCode = await runEvalCommand(flags, { stdout: process.stdout, stderr: process.stderr })
    })
}
