/** `graphrag mcp`: the index as an MCP server over stdio, for agents (Claude, Cursor, VS Code, …). */
import type { Command } from 'commander'
import { type ProjectFlags, withProjectOptions } from './project-options.js'

interface McpFlags extends ProjectFlags {}

export function registerMcpCommand(program: Command): void {
  withProjectOptions(
    program
      .command('mcp')
      .description(
        'Serve the index to AI agents over the Model Context Protocol (stdio): query, entity and report tools, reports as resources.',
      ),
  ).action(async (flags: McpFlags) => {
    const { serveMcpStdio } = await import('../server/mcp.js')
    await serveMcpStdio({ root: flags.root, configFile: flags.config })
  })
}
