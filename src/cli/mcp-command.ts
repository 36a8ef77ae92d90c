/** `graphrag mcp`: the index as an MCP server over stdio, for agents (Claude, Cursor, VS Code, …). */
import type { Command } from 'commander'

interface McpFlags {
  root: string
  config?: string
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the index to AI agents over the Model Context Protocol (stdio): query, entity and report tools, reports as resources.',
    )
    .option('-r, --root <dir>', 'project root', '.')
    .option('-c, --config <file>', 'settings file (default: settings.yaml/.yml/.json in the root)')
    .action(async (flags: McpFlags) => {
      const { serveMcpStdio } = await import('../server/mcp.js')
      await serveMcpStdio({ root: flags.root, configFile: flags.config })
    })
}
