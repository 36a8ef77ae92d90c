/** What `graphrag query` does once its flags are parsed: read the history, search, print. */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { QueryError } from '../errors.js'
import type { Logger } from '../logger.js'
import { parseHistory } from './context/history.js'
import { readExternalContext, writeHybrid } from './hybrid/output.js'
import { runQuery, type SearchMethod, type SearchResult } from './index.js'
import { checkQuestion } from './question.js'
import { queryResponseJson } from './response-json.js'
import type { OpenVectorStore } from './vectors.js'

export interface QueryCommandFlags {
  method: SearchMethod
  root: string
  config?: string
  data?: string
  communityLevel: number
  dynamicCommunitySelection: boolean
  responseType: string
  streaming: boolean
  json: boolean
  history?: string
  /** Hybrid search: print the ranking instead of an answer. */
  explain?: boolean
  /** Hybrid search: JSON file of external passages. */
  context?: string
  /** Lazy search: the relevance-test budget (default lazy_search.relevance_budget). */
  budget?: number
  /** Lazy search: false (`--no-subqueries`) skips refining the question into sub-questions. */
  subqueries?: boolean
  /** Print the context (or the whole prompt) instead of asking the model. */
  contextOnly?: boolean
  promptOnly?: boolean
  verbose: boolean
}

interface Output {
  write(text: string): unknown
}

export async function runQueryCommand(
  question: string,
  flags: QueryCommandFlags,
  io: { stdout: Output; stderr: Output },
  openVectorStore?: OpenVectorStore,
): Promise<SearchResult> {
  checkQuestion(question)
  if (flags.method !== 'hybrid' && flags.method !== 'lazy' && flags.explain === true)
    throw new QueryError('--explain is only available with --method hybrid or lazy')
  if (flags.method !== 'hybrid' && flags.context !== undefined)
    throw new QueryError('--context is only available with --method hybrid')
  if (flags.method !== 'lazy' && (flags.budget !== undefined || flags.subqueries === false))
    throw new QueryError(
      `${flags.budget !== undefined ? '--budget' : '--no-subqueries'} is only available with --method lazy`,
    )
  if (flags.contextOnly === true && flags.promptOnly === true)
    throw new QueryError('--context-only and --prompt-only: choose one')
  const only = flags.contextOnly === true ? 'context' : flags.promptOnly === true ? 'prompt' : undefined
  const history = flags.history === undefined ? [] : await readHistory(flags.history)
  const externalContext = flags.context === undefined ? undefined : await readExternalContext(flags.context)
  const logger = stderrLogger(io.stderr, flags.verbose)
  const streaming = flags.streaming && !flags.json
  const result = await runQuery({
    method: flags.method,
    query: question,
    root: flags.root,
    configFile: flags.config,
    dataDir: flags.data,
    communityLevel: flags.communityLevel,
    dynamicCommunitySelection: flags.dynamicCommunitySelection,
    responseType: flags.responseType,
    history,
    explain: flags.explain ?? false,
    externalContext,
    budget: flags.budget,
    subqueries: flags.subqueries,
    ...(only === undefined ? {} : { only }),
    logger,
    onChunk: streaming ? (chunk) => io.stdout.write(chunk) : undefined,
    openVectorStore,
  })
  if (result.hybrid !== undefined) {
    writeHybrid(result, flags, streaming, io.stdout)
  } else if (flags.json) {
    io.stdout.write(`${JSON.stringify(queryResponseJson(result), null, 2)}\n`)
  } else if (streaming) {
    io.stdout.write('\n')
  } else {
    io.stdout.write(result.response.endsWith('\n') ? result.response : `${result.response}\n`)
  }
  for (const warning of result.warnings) io.stderr.write(`graphrag: warning: ${warning}\n`)
  if (result.usage.failures > 0)
    io.stderr.write(
      `graphrag: warning: ${result.usage.failures} model call(s) failed and were skipped (see --verbose)\n`,
    )
  return result
}

async function readHistory(file: string): Promise<ReturnType<typeof parseHistory>> {
  const path = resolve(file)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    throw new QueryError(`cannot read the history file ${path}`, { cause })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw new QueryError(`${path}: the history file is not valid JSON`, { cause })
  }
  return parseHistory(value, path)
}

function stderrLogger(stderr: Output, verbose: boolean): Logger {
  const line = (level: string) => (message: string) => void stderr.write(`graphrag: ${level}: ${message}\n`)
  return {
    debug: verbose ? line('debug') : () => {},
    info: verbose ? line('info') : () => {},
    warn: verbose ? line('warning') : () => {},
    error: line('error'),
  }
}
