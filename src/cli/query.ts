/** `graphrag query`: answers a question with local, global, DRIFT, basic, graph, hybrid or lazy search over the index. */
import type { Command } from 'commander'
import type { QueryCommandFlags } from '../query/command.js'
import { SEARCH_METHODS, type SearchMethod } from '../query/methods.js'
import { MAX_COMMUNITY_LEVEL, oneOf, wholeNumber } from './arguments.js'
import { withQueryOptionHints } from './option-hints.js'
import { withProjectOptions } from './project-options.js'

/**
 * Methods whose vector searches run on a thread of their own (src/storage/vector-thread.ts). Global
 * search reads no vectors; hybrid search loads LanceDB in process anyway, for its full-text index.
 */
const VECTOR_THREAD_METHODS: ReadonlySet<SearchMethod> = new Set(['local', 'drift', 'basic', 'graph'])

export function registerQueryCommand(program: Command): void {
  const command = withProjectOptions(
    program
      .command('query')
      .description('Answer a question from the index.')
      .configureOutput({ outputError: withQueryOptionHints })
      .argument('<question>', 'the question'),
  )
  addMethodOptions(addAnswerOptions(addSearchOptions(command)))
    .option('-v, --verbose', 'print warnings and debug messages on stderr', false)
    .action(runQuery)
}

/** Which search runs, over which tables, and which reports global search reads. */
function addSearchOptions(command: Command): Command {
  return command
    .option(
      '-m, --method <method>',
      'local, global, drift, basic, graph (vector seeds + a walk over chunk_edges), hybrid (vector + BM25 + graph paths, cited) or lazy (LazyGraphRAG-class: relevance tests down the communities under a budget; works over the offline index)',
      oneOf(SEARCH_METHODS),
      'global',
    )
    .option(
      '-d, --data <dir>',
      'folder with the index tables (default: output_storage.base_dir); its lancedb/ is used when present',
    )
    .option(
      '--community-level <n>',
      'community hierarchy level of the reports (higher = smaller communities)',
      wholeNumber(0, MAX_COMMUNITY_LEVEL),
      2,
    )
    .option('--dynamic-community-selection', 'global search: let the model pick the relevant reports top-down', false)
    .option('--no-dynamic-community-selection', 'global search: use every report of --community-level (the default)')
}

/** How the answer is asked for and printed. */
function addAnswerOptions(command: Command): Command {
  return command
    .option('--response-type <text>', 'length and format of the answer', 'Multiple Paragraphs')
    .option('--streaming', 'print the answer as it is generated', false)
    .option('--no-streaming', 'print the answer when it is complete (the default)')
    .option(
      '--json',
      'print the answer as JSON: {method, response, context, usage, warnings}, plus sources, references and entities for hybrid (docs/schemas/query-response.schema.json)',
      false,
    )
    .option('--history <file>', 'JSON file of earlier turns: [{"role": "user"|"assistant", "content": "..."}]')
}

/** Options that only some methods read (each help line names them). */
function addMethodOptions(command: Command): Command {
  return command
    .option(
      '--explain',
      'hybrid search: print the ranking table (signals, fused score, bonuses, why included) instead of asking for an answer; lazy search: print the path (sub-questions, communities visited, units tested and judged relevant) instead of the claims and answer',
      false,
    )
    .option(
      '--context <file>',
      'hybrid search: JSON file of extra passages to add and cite: ["text", ...] or [{"id": "...", "text": "..."}]',
    )
    .option(
      '--budget <n>',
      'lazy search: at most this many text units tested for relevance (default lazy_search.relevance_budget, 100)',
      wholeNumber(1, 1_000_000),
    )
    .option('--no-subqueries', 'lazy search: search with the question as asked, not refined into sub-questions')
    .option(
      '--context-only',
      'local, basic and graph search: print the context the model would read, and ask no model',
      false,
    )
    .option(
      '--prompt-only',
      'local, basic and graph search: print the messages the model would be sent (system prompt with the context, then the question), and ask no model',
      false,
    )
}

async function runQuery(question: string, flags: QueryCommandFlags): Promise<void> {
  // Started before the query's own modules load, so LanceDB loads on another core meanwhile.
  const vectors = VECTOR_THREAD_METHODS.has(flags.method)
    ? (await import('../storage/vector-thread.js')).startVectorThread()
    : undefined
  try {
    const { runQueryCommand } = await import('../query/command.js')
    await runQueryCommand(question, flags, { stdout: process.stdout, stderr: process.stderr }, vectors?.open)
  } finally {
    await vectors?.close()
  }
}
