/** The two options every command on a project shares: where the project is and which settings file it reads. */
import type { Command } from 'commander'

/** The flags {@link withProjectOptions} adds, as commander gives them. */
export interface ProjectFlags {
  root: string
  config?: string
}

/** Adds `--root` and `--config` to `command` (in that order, first in its help) and returns it for chaining. */
export function withProjectOptions(command: Command): Command {
  return command
    .option('-r, --root <dir>', 'project root', '.')
    .option('-c, --config <file>', 'settings file (default: settings.yaml/.yml/.json in the root)')
}
