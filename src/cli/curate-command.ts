/** `graphrag curate`: corrections to the graph, written as curation.yaml rules (docs/entity-resolution.md). */
import type { Command } from 'commander'
import { positiveNumber } from './arguments.js'
import { type ProjectFlags, withProjectOptions } from './project-options.js'
import type { CurationRule } from '../index/run/curation-edit.js'

export interface CurateFlags extends ProjectFlags {
  apply: boolean
}

const common = (command: Command) =>
  withProjectOptions(command).option('--apply', 'run `graphrag update` at once to apply the rule', false)

export function registerCurateCommand(program: Command): void {
  const curate = program
    .command('curate')
    .description(
      'Correct the graph: each change is a rule in curation.yaml (who/when in curation.audit.jsonl), applied by every index and update.',
    )
  common(
    curate
      .command('merge <from>')
      .description('merge entity <from> into the entity --into (its name becomes an alias)'),
  )
    .requiredOption('--into <to>', 'the entity that stays')
    .action((from: string, flags: CurateFlags & { into: string }) =>
      run(flags, { action: 'merge', entity: from, into: flags.into }),
    )
  common(
    curate.command('rename <old> <new>').description('give an entity a new title (the old one becomes an alias)'),
  ).action((old: string, to: string, flags: CurateFlags) => run(flags, { action: 'rename', entity: old, to }))
  common(curate.command('type <name> <type>').description("set an entity's type")).action(
    (name: string, type: string, flags: CurateFlags) => run(flags, { action: 'set_type', entity: name, type }),
  )
  common(curate.command('delete <name>').description('delete an entity and its relationships')).action(
    (name: string, flags: CurateFlags) => run(flags, { action: 'delete', entity: name }),
  )
  common(
    curate
      .command('relate <source> <target>')
      .description('add a relationship between two entities (joins an existing pair if there is one)'),
  )
    .requiredOption('--description <text>', 'what the relationship is')
    .option('--weight <n>', 'its weight (default 1)', positiveNumber)
    .action((source: string, target: string, flags: CurateFlags & { description: string; weight?: number }) =>
      run(flags, {
        action: 'add_relationship',
        source,
        target,
        description: flags.description,
        ...(flags.weight === undefined ? {} : { weight: flags.weight }),
      }),
    )
  common(
    curate
      .command('unrelate <source> <target>')
      .description('delete the relationship between two entities (in either direction)'),
  ).action((source: string, target: string, flags: CurateFlags) =>
    run(flags, { action: 'delete_relationship', source, target }),
  )
  withProjectOptions(
    curate.command('list').description('list the rules of curation.yaml, in the order they are applied'),
  ).action(async (flags: Omit<CurateFlags, 'apply'>) => {
    const { listRules } = await import('./curate-run.js')
    await listRules(flags)
  })
}

async function run(flags: CurateFlags, rule: CurationRule): Promise<void> {
  const { addRule } = await import('./curate-run.js')
  await addRule(flags, rule)
}
