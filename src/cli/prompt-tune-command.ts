/** `graphrag prompt-tune`: writes extraction, summary and report prompts adapted to the corpus (or, with --dry-run, shows the sample and the cost). */
import type { Command } from 'commander'
import { withProjectOptions } from './project-options.js'
import type { PromptTuneOptions } from '../prompt-tune/options.js'
import { fraction, oneOf, wholeNumber } from './arguments.js'

/** The parsed flags: the run's options under the CLI's names, as commander gives them. */
type PromptTuneFlags = Omit<PromptTuneOptions, 'configFile' | 'env' | 'reporter' | 'domain' | 'language'> & {
  config?: string
  domain?: string
  language?: string
  dryRun: boolean
}

export function registerPromptTuneCommand(program: Command): void {
  const command = withProjectOptions(
    program
      .command('prompt-tune')
      .description(
        'Generate extraction, summary and community-report prompts adapted to your documents (domain, language, entity types, worked examples).',
      ),
  )
    .option('--domain <text>', 'domain of the documents (default: the chat model infers it)')
    .option(
      '--language <name>',
      'language of the documents and of the generated descriptions (default: the chat model detects it)',
    )
  addEntityTypeOptions(addSampleOptions(command))
    .option('-o, --output <dir>', 'folder for the prompts, relative to the root', 'prompts')
    .option(
      '-f, --force',
      'replace existing prompt files (otherwise the tuned ones are written beside them as *.tuned.txt)',
      false,
    )
    .option(
      '--apply',
      'use the tuned prompts: back up the prompts they replace (and the settings file) in <output>/backup-<time>/, then point the settings at them',
      false,
    )
    .option('--dry-run', 'show the sample chunks and the estimated calls and cost; call no model, write nothing', false)
    .option('--no-cache', 'ignore and do not write the LLM cache')
    .option('--seed <n>', 'seed of the random and auto selections', wholeNumber(0, 4_294_967_295), 0xdeadbeef)
    .option('-v, --verbose', 'debug logging and stack traces', false)
    .action(runPromptTuneCommand)
}

/** How the sample chunks are cut and chosen, and how much of them the extraction prompt shows. */
function addSampleOptions(command: Command): Command {
  return command
    .option(
      '--selection-method <method>',
      'how sample chunks are chosen: random, top, all or auto (k-means over embeddings)',
      oneOf(['random', 'top', 'all', 'auto'] as const),
      'random',
    )
    .option('--limit <n>', 'sample chunks for random and top', wholeNumber(1, 100_000), 15)
    .option(
      '--max-tokens <n>',
      'token budget of the extraction prompt (worked examples are added up to it)',
      wholeNumber(1, 10_000_000),
      2000,
    )
    .option(
      '--chunk-size <n>',
      'tokens per chunk when chunking the input for the sample',
      wholeNumber(1, 10_000_000),
      200,
    )
    .option('--overlap <n>', 'tokens shared by consecutive chunks', wholeNumber(0, 10_000_000), 0)
    .option(
      '--min-examples-required <n>',
      'worked examples kept in the extraction prompt even beyond the token budget',
      wholeNumber(0, 1000),
      2,
    )
    .option(
      '--n-subset-max <n>',
      'auto: chunks embedded at most (a seeded random subset of a larger corpus)',
      wholeNumber(1, 1_000_000),
      300,
    )
    .option('--k <n>', 'auto: sample chunks, one nearest each k-means centre', wholeNumber(1, 100_000), 15)
}

/** Whether entity types are discovered from the sample, and how they are consolidated. */
function addEntityTypeOptions(command: Command): Command {
  return command
    .option('--discover-entity-types', 'discover the entity types of the corpus (default)', true)
    .option('--no-discover-entity-types', 'keep the entity types of extract_graph.entity_types')
    .option(
      '--type-strategy <strategy>',
      'how discovered types are consolidated: stratified (top types of each document in turn) or global (most frequent overall)',
      oneOf(['stratified', 'global'] as const),
      'stratified',
    )
    .option('--max-entity-types <n>', 'entity types kept at most', wholeNumber(1, 1000), 12)
    .option(
      '--min-type-share <x>',
      'share of the entities a type needs (of its document for stratified, of the sample for global)',
      fraction,
      0.05,
    )
}

async function runPromptTuneCommand(flags: PromptTuneFlags): Promise<void> {
  const { config, dryRun, ...rest } = flags
  const { createConsoleReporter } = await import('./console-reporter.js')
  const options: Partial<PromptTuneOptions> = {
    ...rest,
    configFile: config,
    reporter: dryRun ? undefined : createConsoleReporter(),
  }
  const out = await import('./prompt-tune-output.js')
  if (dryRun) {
    const { planPromptTune } = await import('../prompt-tune/run.js')
    out.printPromptTunePlan(await planPromptTune(options), process.stdout)
    return
  }
  const { runPromptTune } = await import('../prompt-tune/run.js')
  out.printPromptTuneResult(await runPromptTune(options), process.stdout)
}
