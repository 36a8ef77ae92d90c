/**
 * vitest globalSetup: one Azurite and one s3rver for the whole run, when a selected test file uses them
 * (`useObjectStoreServers(` in its text), their ports handed to the workers as `objectStorePorts`
 * (vitest provide/inject). A pair costs ~2 s of CPU to start; about sixteen files used to start their
 * own. Each file still gets containers and buckets of its own (store-servers.ts names them). A file
 * that stops or restarts a server must start a private one (startAzurite / startS3Server) instead.
 */
import { readFile } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { startAzurite, startS3Server } from './store-servers.js'

const USES_SERVERS = 'useObjectStoreServers('

/**
 * Whether a file of this run uses the servers: a run of other files (most runs of a single file)
 * does not pay for starting them. The run's file filters are not part of vitest's public API; without
 * them every file of the project counts, and the servers start.
 */
async function runUsesServers(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern
  const { testFiles } = await project.globTestFiles(filters)
  const texts = await Promise.all(testFiles.map((file) => readFile(file, 'utf8')))
  return texts.some((text) => text.includes(USES_SERVERS))
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!(await runUsesServers(project))) return undefined
  const [azurite, s3] = await Promise.all([startAzurite(), startS3Server()])
  project.provide('objectStorePorts', { azurite: azurite.port, s3: Number(new URL(s3.endpoint).port) })
  return async () => {
    await Promise.all([azurite.stop(), s3.stop()])
  }
}
