import { mkdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runExport } from '../../src/export/index.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { describeBrowser, launchBrowser, type Browser } from '../support/browser.js'
import { runCli } from '../support/cli.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { indexedDemoCopy } from '../support/demo-index.js'
import { handMadeIndex } from './fixture.js'

// GRAPHRAG_UPDATE_DOCS=1 refreshes the README's picture from this test's screenshot.
const DOCS_PICTURE = join(PROJECT_ROOT, 'docs', 'export-demo.png')

describeBrowser('graph.html in headless Chromium', () => {
  let browser: Browser
  let demo: string
  let demoHtml: string
  beforeAll(async () => {
    demo = await indexedDemoCopy()
    const exported = await runCli(['export', '--root', demo])
    expect(exported.code, exported.stderr).toBe(0)
    demoHtml = join(demo, 'output', 'export', 'graph.html')
    expect(exported.stdout).toContain(demoHtml)
    browser = await launchBrowser()
  })
  afterAll(async () => browser?.close())

  async function open(file: string): Promise<Page> {
    const page = await browser.context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // Offline means offline: any request beyond the file itself fails the test.
    await page.route(/^(?!file:)/, (route) => {
      errors.push(`network request: ${route.request().url()}`)
      return route.abort()
    })
    await page.goto(pathToFileURL(file).href)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 })
    expect(errors).toEqual([])
    return page
  }

  it('draws the demo graph: every entity, colours by community, from disk with no network', async () => {
    const store = new ParquetTableStore(join(demo, 'output'))
    const entities = await store.read(ENTITIES)
    const page = await open(demoHtml)
    expect(await page.getAttribute('body', 'data-node-count')).toBe(String(entities.length))
    expect(await page.getAttribute('body', 'data-rendered-nodes')).toBe(String(entities.length))
    await page.waitForTimeout(300) // sigma draws on the next animation frame
    const shot = join(demo, 'screenshot.png')
    await page.screenshot({ path: shot })
    const pixels = await paintedPixels(page, await readFile(shot))
    // A blank canvas is one colour; the drawing has thousands of non-white pixels in the community colours.
    expect(pixels.nonWhite).toBeGreaterThan(20_000)
    expect(pixels.paletteColours).toBeGreaterThanOrEqual(3)
    await page.close()
  })

  it('search finds a demo entity and shows its details and its community report', async () => {
    const store = new ParquetTableStore(join(demo, 'output'))
    const entity = (await store.read(ENTITIES)).find((e) => e.title === 'PORT ALDWICK')!
    const relationships = (await store.read(RELATIONSHIPS)).filter(
      (r) => r.source === entity.title || r.target === entity.title,
    )
    const community = (await store.read(COMMUNITIES)).find((c) => c.level === 0 && c.entity_ids.includes(entity.id))!
    const report = (await store.read(COMMUNITY_REPORTS)).find((r) => r.community === community.community)!
    const page = await open(demoHtml)
    await page.fill('#search', 'port ald')
    await page.press('#search', 'Enter')
    const details = page.locator('#details')
    await details.waitFor({ state: 'visible' })
    await expect.poll(() => details.locator('h2').textContent()).toBe('PORT ALDWICK')
    // The fast method writes no descriptions; the panel says so rather than showing nothing.
    expect(entity.description).toBe('')
    expect(await details.textContent()).toContain('No description in the index')
    expect(await details.locator('.report-title').textContent()).toBe(report.title)
    expect(await details.locator('.report-summary').textContent()).toBe(report.summary)
    expect(await details.locator('h3').nth(1).textContent()).toContain(`Relationships: ${relationships.length}`)
    if (process.env.GRAPHRAG_UPDATE_DOCS === '1') await updateDocsPicture(page)
    await page.close()
  })

  it("search and a click on a node show the entity's description and relationships", async () => {
    const data = await handMadeIndex()
    const file = (await runExport({ format: 'html', dataDir: data, out: join(data, 'graph.html') })).files[0]!
    const page = await open(file)
    await page.fill('#search', 'engine')
    await page.press('#search', 'Enter')
    const details = page.locator('#details')
    await expect.poll(() => details.locator('h2').textContent()).toBe('ANALYTICAL ENGINE')
    expect(await details.textContent()).toContain('A mechanical general-purpose computer.')
    await page.click('#close')
    await details.waitFor({ state: 'hidden' })
    await page.waitForTimeout(600) // the camera glides to the searched node; click once it has stopped
    const at = await page.evaluate<{ x: number; y: number }>(`graphragViewer.position('CHARLES BABBAGE')`)
    await page.mouse.click(at.x, at.y)
    await expect.poll(() => details.locator('h2').textContent()).toBe('CHARLES BABBAGE')
    const text = (await details.textContent())!
    expect(text).toContain('Designed the Analytical Engine.')
    expect(text).toContain('Corresponded about "the Engine", at length.')
    expect(text).toContain('The Engine & its makers')
    await page.close()
  })
})

/** The README's picture: the demo with one entity selected (its relationships highlighted, its details open). */
async function updateDocsPicture(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1080, height: 600 })
  await page.waitForTimeout(800)
  await mkdir(join(PROJECT_ROOT, 'docs'), { recursive: true })
  await page.screenshot({ path: DOCS_PICTURE })
  expect((await stat(DOCS_PICTURE)).size).toBeLessThan(200_000)
}

/**
 * Decodes the screenshot in the page itself (the browser has a PNG decoder) and counts what was drawn
 * right of the side panel. A string, since it runs in the page and the tests compile without the DOM library.
 */
async function paintedPixels(page: Page, png: Buffer): Promise<{ nonWhite: number; paletteColours: number }> {
  return page.evaluate(`(async () => {
    const image = new Image()
    image.src = 'data:image/png;base64,${png.toString('base64')}'
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.width
    canvas.height = image.height
    const context = canvas.getContext('2d')
    context.drawImage(image, 0, 0)
    const { data } = context.getImageData(320, 0, image.width - 320, image.height)
    const palette = ['4e79a7', 'f28e2b', 'e15759', '76b7b2', '59a14f', 'edc948', 'b07aa1', 'ff9da7', '9c755f', '17becf']
    const seen = new Set()
    let nonWhite = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] < 245 || data[i + 1] < 245 || data[i + 2] < 245) nonWhite++
      const hex = [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('')
      if (palette.includes(hex)) seen.add(hex)
    }
    return { nonWhite, paletteColours: seen.size }
  })()`)
}
