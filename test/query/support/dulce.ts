/**
 * Test projects for query tests: a temporary root whose settings point the models at the fake
 * server, searching the Dulce reference index (Parquet + LanceDB written by Python GraphRAG).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Settings } from '../../../src/config/index.js'
import { fakeModelSettingsYaml } from '../../support/fake-llm/index.js'

export const DULCE_DIMENSION = 3072

/** Writes settings.yaml (fake models + `extra` YAML) into a fresh temp root and loads it. */
export function fakeProject(baseUrl: string, extra = ''): { root: string; settings: Settings } {
  const root = mkdtempSync(join(tmpdir(), 'graphrag-query-'))
  writeFileSync(join(root, 'settings.yaml'), `${fakeModelSettingsYaml(baseUrl)}${extra}\n`)
  return { root, settings: loadConfig({ root, env: {} }).settings }
}

/** Prompt text of a recorded chat request: its system message (or the first user message). */
export function systemOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string }[] }).messages ?? []
  return (messages.find((m) => m.role === 'system') ?? messages[0])?.content ?? ''
}

export function userOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: string }[] }).messages ?? []
  return [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
}
