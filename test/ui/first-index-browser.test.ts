/**
 * A new project in the web UI (issue 43 item 1), headless Chromium against a real `graphrag serve`:
 * files in input/ and no index; the Status page says so without advising an update and offers
 * "Build index"; the Documents page lists the files as new and builds the index with live progress;
 * then a question gets an answer with a citation.
 */
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { describeBrowser, launchBrowser, type Browser } from '../support/browser.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const TOKEN = 'first-index-token'
const CHAPTERS = ['01-the-harbour.txt', '03-the-salvage.txt']

/** The demo's offline settings, with the fake chat model answering basic search. */
async function settings(baseUrl: string): Promise<string> {
  const demo = await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), 'utf8')
  return demo
    .replace(
      'completion_models: {}',
      [
        'completion_models:',
        '  default_completion_model:',
        '    model_provider: openai',
        '    model: gpt-4.1-mini',
        '    api_key: sk-ui-test',
        `    api_base: ${baseUrl}`,
        '    retry:',
        '      max_retries: 0',
      ].join('\n'),
    )
    .replace(
      /basic_search:\n {2}completion_model_id: null/g,
      'basic_search:\n  completion_model_id: default_completion_model',
    )
}

describeBrowser('a project without an index, in the web UI', () => {
  let fake: FakeLlm
  let server: RunningServer
  let browser: Browser
  let page: Page
  const errors: string[] = []

  beforeAll(async () => {
    fake = await startFakeLlm()
    // An empty file: the indexer skips it, the listing shows it as skipped with the reason.
    const root = await testdir({ 'settings.yaml': await settings(fake.baseUrl), 'input/empty.txt': '' })
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
    expect(await rows.first().getAttribute('data-title')).toBe('empty.txt')
    expect(await rows.first().locator('.reason').textContent()).not.toBe('')
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
