/**
 * A new project in the web UI (issue 43 item 1), headless Chromium against a real `graphrag serve`:
 * files in input/ and no index; the Status page says so without advising an update and offers
 * "Build index"; the Documents page lists the files as new (and an encrypted PDF as skipped, with the
 * reason) and builds the index with live progress; then a question gets an answer with a citation;
 * a file edited on disk shows as edited and "Update now" applies it.
 */
import { appendFile, cp } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { describeBrowser, launchBrowser, type Browser } from '../support/browser.js'
import { makePdf } from '../support/documents.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { demoSettingsWithChat } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const TOKEN = 'first-index-token'
const CHAPTERS = ['01-the-harbour.txt', '03-the-salvage.txt']

/** The demo's offline settings, with the fake chat model answering basic search. */
async function settings(baseUrl: string): Promise<string> {
  // Every format the indexer reads, so that the PDF is listed (as skipped).
  return (await demoSettingsWithChat(baseUrl, ['basic'])).replace('input:\n  type: text', 'input:\n  type: auto')
}

describeBrowser('a project without an index, in the web UI', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer
  let browser: Browser
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    fake = await startFakeLlm()
    // An encrypted PDF: the indexer skips it, the listing shows it as skipped with the reason.
    root = await testdir({
      'settings.yaml': await settings(fake.baseUrl),
      'input/locked.pdf': await makePdf({ pages: [['Secret']], userPassword: 'pw' }),
    })
    for (const file of CHAPTERS)
      await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', file), join(root, 'input', file))
    server = await startServer({ root, port: 0, token: TOKEN, env: {} })
    browser = await launchBrowser()
    page = await browser.context.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    // A CSP refusal shows as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        errors.push(message.text())
    })
    page.on('response', (response) => {
      // 401 before the token is given is the protocol; a 409 from /ui/stats or a query is "no index yet".
      if (response.status() >= 400 && response.status() !== 401 && response.status() !== 409)
        errors.push(`${response.status()} ${new URL(response.url()).pathname}`)
    })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await fake?.close()
  })

  it('Status says there is no index and offers Build index; Documents builds it; then a question is answered', async () => {
    await page.goto(`${server.url}/`)
    await page.click('#tab-status')
    await page.fill('#token', TOKEN)
    await page.click('#token-form button[type=submit]')
    const state = page.locator('#index-state')
    await state.waitFor()
    expect(await state.textContent()).toMatch(/No index yet/)
    expect(await state.textContent()).not.toMatch(/update/i)
    await page.locator('#build-index').waitFor({ state: 'visible' })

    await page.click('#tab-documents')
    await page.locator('#no-index').waitFor()
    const rows = page.locator('#documents-table tbody tr')
    await expect.poll(() => rows.count()).toBe(CHAPTERS.length + 1)
    expect(await rows.locator('.status').allTextContents()).toEqual(['new', 'new', 'skipped'])
    await page.click('#no-index #build-index')
    const job = page.locator('#job')
    await job.waitFor()
    expect(await job.locator('strong').textContent()).toBe('index')
    await page.waitForSelector('#job:not([data-state="running"])', { timeout: 90_000 })
    expect(await job.getAttribute('data-state'), (await job.textContent()) ?? '').toBe('done')
    expect(await job.textContent()).toContain('The new index is published')
    expect(await page.locator('#no-index').count()).toBe(0)
    await expect
      .poll(async () => (await rows.locator('.status').allTextContents()).join(','))
      .toBe('indexed,indexed,skipped')
    // The status filter keeps only the skipped file, with its reason.
    await page.selectOption('#status-filter', 'skipped')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().getAttribute('data-title')).toBe('locked.pdf')
    expect(await rows.first().locator('.reason').textContent()).toMatch(/encrypted PDF/)
    expect(await page.locator('#listing-range').textContent()).toBe('1–1 of 1')

    await page.click('#tab-ask')
    await page.selectOption('#method', 'basic')
    await page.fill('#question', 'Who salvaged the ship?')
    await page.click('#ask')
    const turn = page.locator('.turn[data-done="true"]')
    await turn.waitFor()
    await turn.locator('.citation').first().click()
    await page.locator('#source-panel .passage').waitFor()
    expect(errors.join('\n')).toBe('')
  }, 150_000)

  it('a file edited on disk shows as edited; "Update now" runs update and the listing is current again', async () => {
    await page.click('#tab-documents')
    await page.selectOption('#status-filter', '')
    const pending = page.locator('#pending-changes')
    await expect.poll(() => pending.textContent()).toContain('up to date')
    expect(await page.isDisabled('#update-now')).toBe(true)
    await appendFile(join(root, 'input', CHAPTERS[1]!), '\n\nThe harbour master signed the salvage papers at dawn.\n')
    // The page scans the input storage again on request: the edit is found without a reload.
    await page.click('#scan-input')
    await expect.poll(() => pending.textContent()).toContain('1 edited')
    const row = page.locator(`#documents-table tr[data-title="${CHAPTERS[1]}"]`)
    expect(await row.locator('.status').textContent()).toBe('edited')
    await page.click('#update-now')
    const job = page.locator('#job')
    await expect
      .poll(async () => `${await job.locator('strong').textContent()} ${await job.getAttribute('data-state')}`, {
        timeout: 90_000,
      })
      .toBe('update done')
    await expect.poll(() => row.locator('.status').textContent()).toBe('indexed')
    expect(await pending.textContent()).toContain('up to date')
    expect(errors.join('\n')).toBe('')
  }, 120_000)

  it('/docs shows the API reference, styled under the CSP, from the link in the page', async () => {
    await page.goto(`${server.url}/docs`)
    await page.locator('h1').waitFor()
    await page.click('a[href="#get-documents"]')
    const section = page.locator('#get-documents')
    await section.waitFor()
    expect(await section.locator('code', { hasText: 'sort' }).count()).toBeGreaterThan(0)
    // The stylesheet applied (no inline style is allowed by the CSP): GET is drawn green.
    expect(await page.evaluate("getComputedStyle(document.querySelector('#get-documents .method.get')).color")).toBe(
      'rgb(26, 127, 55)',
    )
    expect(errors.join('\n')).toBe('')
  })
})
