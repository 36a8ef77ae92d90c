/** `graphrag init`: never prompts when stdin is not a TTY, never overwrites without --force. */
import type { Command } from 'commander'

interface InitFlags {
  root: string
  model?: string
  embedding?: string
  force: boolean
  resetEnv: boolean
  offline: boolean
  provider: string
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create settings.yaml, .env, input/ and prompts/ in a project folder.')
    .option('-r, --root <dir>', 'project root', '.')
    .option('-m, --model <name>', "chat model (default: the provider's, gpt-4.1 for openai)")
    .option('-e, --embedding <name>', "embedding model (default: the provider's, text-embedding-3-large for openai)")
    .option(
      '-p, --provider <name>',
      'model_provider of both models (openai, azure, anthropic, gemini, ollama, …)',
      'openai',
    )
    .option('--offline', 'fast NLP method and a local embedder: no API key needed', false)
    .option('-f, --force', 'overwrite settings.yaml and the prompts (an existing .env is kept)', false)
    .option('--reset-env', 'replace an existing .env with the placeholder (the key in it is lost)', false)
    .action(async (flags: InitFlags) => {
      const { initProject } = await import('../config/init-project.js')
      const result = await initProject({
        root: flags.root,
        ...(flags.model === undefined ? {} : { model: flags.model }),
        ...(flags.embedding === undefined ? {} : { embedding: flags.embedding }),
        offline: flags.offline,
        provider: flags.provider,
        force: flags.force,
        resetEnv: flags.resetEnv,
      })
      process.stdout.write(`Initialized ${result.root}\n`)
      for (const file of result.written) process.stdout.write(`  wrote ${file}\n`)
      for (const file of result.kept)
        process.stdout.write(
          `  kept existing ${file} (${file === '.env' ? '--reset-env replaces it' : 'use --force to overwrite'})\n`,
        )
      const next = flags.offline || result.keyless ? '' : ' Put your API key in .env, then'
      process.stdout.write(
        `\nNext:${next} add documents to ${result.root}/input and run: graphrag index --root ${flags.root}\n`,
      )
    })
}
