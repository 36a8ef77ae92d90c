/** Builds a temporary project from an inline file tree: `await testdir({ 'settings.yaml': '...' })`. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export async function testdir(files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'graphrag-test-'))
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFile(full, content)
  }
  return root
}
