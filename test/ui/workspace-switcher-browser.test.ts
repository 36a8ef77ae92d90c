/**
 * The web UI's workspace switcher (issue 43 item 9), headless Chromium against a real `graphrag serve`
 * with two workspaces: the admin token sees all three projects and switches between them (each page
 * calls its own workspace's routes); a workspace's token opening / is taken to its own workspace,
 * with no switcher and no other name on the page.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { describeBrowser, launchBrowser, type Browser } from '../support/browser.js'
import { testdir } from '../support/testdir.js'

const TOKENS = { admin: 'switch-admin-1', alpha: 'switch-alpha-1' }

describeBrowser('the workspace switcher of the web UI', () => {
  let server: RunningServer
  let browser: Browser

  beforeAll(async () => {
    const project = (file: string) =>
      testdir({ 'settings.yaml': 'input:\n  type: text\n', [`input/${file}`]: 'Some text.\n' })
    const [main, alpha, bravo] = await Promise.all([project('main.txt'), project('alpha.txt'), project('bravo.txt')])
    server = await startServer({
      root: main,
      port: 0,
      workspaces: [
        { name: 'alpha', root: alpha },
        { name: 'bravo', root: bravo },
      ],
      env: { GRAPHRAG_SERVER_TOKEN: TOKENS.admin, GRAPHRAG_SERVER_TOKEN_ALPHA: TOKENS.alpha },
    })
    browser = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function signedIn(token: string): Promise<Page> {
    const page = await browser.context.newPage()
    await page.goto(`${server.url}/#documents`)
    await page.fill('#token', token)
    await page.click('#token-form button[type=submit]')
    return page
  }

  const titles = (page: Page) =>
    page.locator('#documents-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-title')))

  it('the admin token switches between the default workspace and the named ones', async () => {
    const page = await signedIn(TOKENS.admin)
    await expect.poll(() => titles(page)).toEqual(['main.txt'])
    const options = await page.locator('#workspace option').allTextContents()
    expect(options).toEqual(['default', 'alpha', 'bravo'])
    await page.selectOption('#workspace', '/w/bravo/')
    await page.waitForURL(`${server.url}/w/bravo/#documents`)
    await expect.poll(() => titles(page)).toEqual(['bravo.txt'])
    expect(await page.locator('#workspace').inputValue()).toBe('/w/bravo/')
    await page.close()
  })

  it("a workspace's token opening / is taken to its workspace, with no switcher and no other name", async () => {
    const page = await signedIn(TOKENS.alpha)
    await page.waitForURL(`${server.url}/w/alpha/#documents`)
    await expect.poll(() => titles(page)).toEqual(['alpha.txt'])
    expect(await page.locator('#workspace').count()).toBe(0)
    expect(await page.content()).not.toContain('bravo')
    await page.close()
  })
})
