/** Commands that exist in the reference but are not built yet: listed in --help, honest when run. */
import type { Command } from 'commander'
import { GraphragError } from '../errors.js'

export function registerPlannedCommands(program: Command): void {
  program
    .command('prompt-tune')
    .description('Generate prompts tuned to your documents (not available yet).')
    .option('-r, --root <dir>', 'project root', '.')
    .allowUnknownOption()
    .action(() => {
      throw new GraphragError('WORKFLOW', 'graphrag prompt-tune is not available yet; edit the files in prompts/ to adapt them to your domain')
    })
}
