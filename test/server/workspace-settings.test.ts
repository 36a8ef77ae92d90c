/**
 * Which workspaces a serve hosts and with which tokens: names that could play path or variable
 * tricks, roots that do not exist or are served twice, and tokens that are shared or too short
 * beyond loopback are refused at start, each with one message naming the setting and never the token.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/server/start.js'
import { parseWorkspaceFlag, workspaceSpecs, workspaceTokenVariable } from '../../src/server/workspaces.js'
import { testdir } from '../support/testdir.js'

describe('workspace names and roots', () => {
  it('takes plain lowercase names only', async () => {
    const root = await testdir({ 'a/settings.yaml': '' })
    for (const bad of ['..', '../a', 'a/b', 'A', '-a', 'a-', '', 'a_b', 'a.b', '%2e%2e', 'x'.repeat(41)])
      expect(() => workspaceSpecs(root, { [bad]: 'a' }, []), bad).toThrow(/workspace name .* is not allowed/)
    expect(workspaceSpecs(root, { 'docs-2': 'a' }, [])).toEqual([{ name: 'docs-2', root: join(root, 'a') }])
    expect(workspaceTokenVariable('docs-2')).toBe('GRAPHRAG_SERVER_TOKEN_DOCS_2')
  })

  it('reads --workspace name=root, and a flag replaces the setting of the same name', async () => {
    const root = await testdir({ 'a/settings.yaml': '', 'b/settings.yaml': '' })
    expect(parseWorkspaceFlag('docs=../x=y')).toEqual({ name: 'docs', root: '../x=y' })
    for (const bad of ['docs', '=x', 'docs=', 'Docs=x'])
      expect(() => parseWorkspaceFlag(bad), bad).toThrow(/--workspace/)
    expect(workspaceSpecs(root, { docs: 'a' }, [{ name: 'docs', root: 'b' }])).toEqual([
      { name: 'docs', root: join(root, 'b') },
    ])
  })

  it('refuses a missing root, and one project served twice (the serve root included)', async () => {
    const root = await testdir({ 'a/settings.yaml': '' })
    expect(() => workspaceSpecs(root, { docs: 'nowhere' }, [])).toThrow(/workspace docs: no folder .*nowhere/)
    expect(() => workspaceSpecs(root, { one: 'a', two: './a/' }, [])).toThrow(
      /workspace two: .* already served as workspace one/,
    )
    expect(() => workspaceSpecs(root, { self: '.' }, [])).toThrow(/already served as the serve root/)
  })
})

describe('workspace tokens at start', () => {
  const project = async () => {
    const root = await testdir({ 'settings.yaml': 'server:\n  workspaces:\n    docs: docs\n' })
    await mkdir(join(root, 'docs'))
    return root
  }

  it('refuses one token for two workspaces (or for a workspace and the admin), naming the variables only', async () => {
    const root = await project()
    const shared = 'shared-token-value-1'
    const start = startServer({
      root,
      port: 0,
      env: { GRAPHRAG_SERVER_TOKEN: shared, GRAPHRAG_SERVER_TOKEN_DOCS: shared },
    })
    await expect(start).rejects.toThrow(/GRAPHRAG_SERVER_TOKEN_DOCS and GRAPHRAG_SERVER_TOKEN hold the same token/)
    await expect(start).rejects.not.toThrow(new RegExp(shared))
  })

  it("beyond loopback a workspace's token needs 16 characters and the admin token is still required", async () => {
    const root = await project()
    await expect(
      startServer({
        root,
        host: '0.0.0.0',
        port: 0,
        env: { GRAPHRAG_SERVER_TOKEN: 'a-long-enough-admin-token', GRAPHRAG_SERVER_TOKEN_DOCS: 'short-1' },
      }),
    ).rejects.toThrow(/GRAPHRAG_SERVER_TOKEN_DOCS has 7 characters/)
    await expect(
      startServer({ root, host: '0.0.0.0', port: 0, env: { GRAPHRAG_SERVER_TOKEN_DOCS: 'a-long-enough-docs-token' } }),
    ).rejects.toThrow(/set GRAPHRAG_SERVER_TOKEN/)
    await expect(startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN_DOCS: 'bad token' } })).rejects.toThrow(
      /GRAPHRAG_SERVER_TOKEN_DOCS: use only letters/,
    )
  })

  it('a workspace without settings is refused naming it', async () => {
    await expect(startServer({ root: await project(), port: 0, env: {} })).rejects.toThrow(
      /^workspace docs: no settings.yaml/,
    )
  })

  it('refuses two workspaces that publish into one output folder', async () => {
    const shared = await testdir()
    const output = `output_storage:\n  base_dir: ${JSON.stringify(join(shared, 'out'))}\n`
    const root = await testdir({
      'settings.yaml': 'server:\n  workspaces:\n    one: one\n    two: two\n',
      'one/settings.yaml': output,
      'two/settings.yaml': output,
    })
    await expect(startServer({ root, port: 0, env: {} })).rejects.toThrow(
      /^workspace two: its output_storage.base_dir .*out is also that of workspace one/,
    )
  })

  it('a workspace without its own token is open on loopback when there is no admin token', async () => {
    const root = await project()
    await writeFile(join(root, 'docs', 'settings.yaml'), 'input:\n  type: text\n')
    const server = await startServer({ root, port: 0, env: {} })
    try {
      expect((await fetch(`${server.url}/w/docs/documents`)).status).toBe(200)
      expect((await fetch(`${server.url}/documents`)).status).toBe(200)
      expect((await fetch(`${server.url}/w/other/documents`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})
