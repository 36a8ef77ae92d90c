/** Commands that exist in the reference but are not built yet: listed in --help, honest when run. */
import type { Command } from 'commander'
import { GraphragError } from '../errors.js'

export function registerPlannedCommands(program: Command): void {
  program
    .command('update')
    .description('Merge new documents into an existing index (not available yet).')
    .option('-r, --root <dir>', 'project root', '.')
    // Accept whatever a Microsoft GraphRAG user types (`--verbose`, `--method fast`) to reach the message below.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new GraphragError(
        'WORKFLOW',
        'graphrag update is not available yet; run `graphrag index` instead: finished work is resumed and cached LLM answers are reused, so only new documents cost model calls',
      )
    })
}
