/**
 * The command-line program: declares the commands, dispatches to the library, and is the only
 * place that prints errors and decides the exit code (1 on failure, as the reference does).
 */
import { Command, CommanderError } from '../vendor/commander.js'
import { GraphragError } from '../errors.js'
import { VERSION } from '../version.js'
import { registerExportCommand } from './export-command.js'
import { registerIndexCommand } from './index-command.js'
import { registerInitCommand } from './init-command.js'
import { registerPromptTuneCommand } from './prompt-tune-command.js'
import { registerQueryCommand } from './query.js'
import { registerUpdateCommand } from './update-command.js'
import { registerServeCommand } from './serve-command.js'
import { registerDiagnosticsCommand } from './diagnostics-command.js'
import { registerMcpCommand } from './mcp-command.js'
import { registerEvalCommand } from './eval-command.js'
import { registerCurateCommand } from './curate-command.js'
import { registerRefreshRelationsCommand } from './refresh-relations-command.js'
import { registerNormalizeEntitiesCommand } from './normalize-entities-command.js'

export function buildProgram(): Command {
  const program = new Command('graphrag')
    .description('Turn a folder of documents into a knowledge-graph index and answer questions over it.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  registerInitCommand(program)
  registerIndexCommand(program)
  registerUpdateCommand(program)
  registerPromptTuneCommand(program)
  registerQueryCommand(program)
  registerExportCommand(program)
  registerServeCommand(program)
  registerDiagnosticsCommand(program)
  registerMcpCommand(program)
  registerEvalCommand(program)
  registerCurateCommand(program)
  registerRefreshRelationsCommand(program)
  registerNormalizeEntitiesCommand(program)
  return program
}

export async function main(argv: readonly string[]): Promise<number> {
  stopWritingWhenClosed(process.stdout)
  stopWritingWhenClosed(process.stderr)
  const verbose = argv.includes('--verbose') || argv.includes('-v')
  const program = buildProgram()
  if (argv.length <= 2) {
    program.outputHelp()
    return 0
  }
  try {
    await program.parseAsync([...argv])
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    return reportError(error, verbose)
  }
}

/**
 * `graphrag ... | head -1`: the reader went away. Output nobody reads is not an error, so later
 * writes are dropped quietly and the command ends with its own exit code.
 */
function stopWritingWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
}

function reportError(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has already printed usage errors; help and --version end here too.
    return error.exitCode
  }
  process.stderr.write(`graphrag: ${describeError(error)}\n`)
  if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n${causeStack(error)}`)
  else if (!(error instanceof GraphragError))
    process.stderr.write(
      'This looks like a bug in graphrag; run again with --verbose for the stack trace and report it.\n',
    )
  return 1
}

/** One line: the message, plus the cause's message when it adds something. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  if (cause instanceof Error && !saysAlready(error.message, cause)) return `${error.message}: ${cause.message}`
  return error.message.split('\n').join('\n  ')
}

/** A message that quotes its cause, or names a system error by its code (`(ENOENT)`), needs no repeat of it. */
function saysAlready(message: string, cause: Error): boolean {
  const code = (cause as NodeJS.ErrnoException).code
  return message.includes(cause.message) || (typeof code === 'string' && message.includes(`(${code})`))
}

function causeStack(error: Error): string {
  return error.cause instanceof Error && error.cause.stack ? `caused by: ${error.cause.stack}\n` : ''
}
