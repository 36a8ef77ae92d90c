/**
 * The web UI in headless Chromium against a real `graphrag serve` on 127.0.0.1 with a token (one
 * server, one browser for the file): ask and open a citation, the Ask parameters, an offline answer's
 * passages, the hybrid ranking table, the graph with search, the neighbourhood view, expansion,
 * filters and fullscreen, the documents round trip, the page at 360 px and in the dark theme, the
 * status page. Each page's screenshot is checked for the elements a person needs (visible, inside
 * the window), not pixels.
 */
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ViewerData } from '../../src/export/viewer-data.js'
import { runIndex } from '../../src/index/run/runner.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { describeBrowser, launchBrowser, type Browser } from '../support/browser.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { demoSettingsWithChat } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const TOKEN = 'ui-test-token'
// One of the demo's chapters: a graph with communities, quick to index and to update.
const CHAPTERS = ['01-the-harbour.txt']
// GRAPHRAG_UPDATE_DOCS=1 refreshes the README's picture of the UI from this test's screenshot.
const DOCS_PICTURE = join(PROJECT_ROOT, 'docs', 'web-ui.png')

/** The demo's offline settings, with the fake chat model answering local and basic search. */
const settings = (baseUrl: string) => demoSettingsWithChat(baseUrl, ['local', 'basic'])

describeBrowser('the web UI in headless Chromium', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer
  let browser: Browser
  let page: Page
  const errors: string[] = []
  /** The bodies of the page's POST /query requests, in order. */
  const queries: Record<string, unknown>[] = []

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await testdir({ 'settings.yaml': await settings(fake.baseUrl) })
    for (const file of CHAPTERS)
      await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', file), join(root, 'input', file))
    await runIndex({ root, env: {}, skipValidation: true })
    server = await startServer({ root, port: 0, token: TOKEN, env: {} })
    browser = await launchBrowser()
    page = await browser.context.newPage()
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/query') queries.push(request.postDataJSON() as Record<string, unknown>)
    })
    page.on('console', (message) => {
      // Failed requests are judged below, by their URL; any other console error (CSP included) is a fault.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        errors.push(message.text())
    })
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname
      // A 401 before the token is given is the protocol working, and so is the 404 of the graph case's
      // merge into an entity that does not exist; any other error status is a fault.
      const expected = response.status() === 401 || (response.status() === 404 && path === '/graph/entities/merge')
      if (response.status() >= 400 && !expected) errors.push(`${response.status()} ${path}`)
    })
    // Nothing but this server: the UI uses no CDN or other site at run time.
    await page.route(
      (url) => !url.href.startsWith(server.url),
      (route) => {
        errors.push(`network request: ${route.request().url()}`)
        return route.abort()
      },
    )
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await fake?.close()
  })

  /** Every label drawn in the graph's last frame lies inside its canvas (none cut at an edge). */
  async function labelsInside(): Promise<void> {
    const drawn = (await page.evaluate('graphragViewer.labels()')) as Record<string, number>
    expect(drawn.count).toBeGreaterThan(0)
    expect(drawn.left).toBeGreaterThanOrEqual(0)
    expect(drawn.right).toBeLessThanOrEqual(drawn.width!)
  }

  /** The element is drawn with a size, inside the window once scrolled to (what a person sees on the screenshot). */
  async function onScreen(locator: Locator): Promise<void> {
    await locator.first().waitFor({ state: 'visible' })
    await locator.first().scrollIntoViewIfNeeded()
    const box = (await locator.first().boundingBox())!
    const view = page.viewportSize()!
    expect(box.width).toBeGreaterThan(0)
    expect(box.height).toBeGreaterThan(0)
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(view.width + 1)
    expect(box.y).toBeLessThan(view.height)
  }

  it('asks once for the token, streams an answer, and a citation opens the cited passage', async () => {
    await page.goto(`${server.url}/`)
    await onScreen(page.locator('#tab-ask'))
    await page.selectOption('#method', 'basic')
    await page.fill('#question', 'What happened in the storm?')
    await page.click('#ask')
    // The first API call meets the token: the dialog asks for it once.
    await page.fill('#token', TOKEN)
    await page.click('#token-form button[type=submit]')
    const turn = page.locator('.turn[data-done="true"]')
    await turn.waitFor()
    expect(await turn.locator('.question').textContent()).toContain('What happened in the storm?')
    const citation = turn.locator('.citation').first()
    await onScreen(citation)
    expect(await citation.textContent()).toMatch(/^Sources \d+$/)
    await citation.click()
    const panel = page.locator('#source-panel')
    await onScreen(panel)
    const passage = (await panel.locator('.passage').textContent()) ?? ''
    expect(passage.length).toBeGreaterThan(100)
    // The passage is a text unit of the index: its text is in one of the input documents.
    const inputs = await Promise.all(CHAPTERS.map((f) => readFile(join(root, 'input', f), 'utf8')))
    expect(inputs.some((text) => text.replace(/\s+/g, ' ').includes(passage.slice(0, 60).replace(/\s+/g, ' ')))).toBe(
      true,
    )
    // The cited source carries its document's title, from the index.
    await expect.poll(() => panel.locator('.document-title').textContent()).toContain(CHAPTERS[0])
    await page.screenshot({ path: join(root, 'ask.png') })
    if (process.env.GRAPHRAG_UPDATE_DOCS === '1') await writeFile(DOCS_PICTURE, await page.screenshot())

    // A follow-up sends the conversation as history: the model sees the first question again.
    // It is asked with local search, whose answer cites entities: one opens with its source passages.
    const before = fake.requests.length
    await page.selectOption('#method', 'local')
    await page.fill('#question', 'And who was hurt?')
    await page.click('#ask')
    const second = page.locator('.turn[data-done="true"]').nth(1)
    await second.waitFor()
    const followUp = JSON.stringify(fake.requests.slice(before).map((r) => r.body))
    expect(followUp).toContain('What happened in the storm?')
    const entity = second.locator('.citation').first()
    expect(await entity.textContent()).toMatch(/^Entities \d+$/)
    await entity.click()
    await onScreen(panel.locator('h4', { hasText: 'Source passages' }))
    await onScreen(panel.locator('.passage'))
    expect(await panel.locator('dl.fields').textContent()).toContain('entity')
  })

  it('hybrid search shows its ranking table; its [S1] citation opens the passage fetched from the index', async () => {
    await page.selectOption('#method', 'hybrid')
    await page.fill('#question', 'Where did the storm hit the harbour?')
    await page.click('#ask')
    const turn = page.locator('.turn[data-done="true"]').nth(2)
    await turn.waitFor()
    await onScreen(turn.locator('#ranking-table tbody tr'))
    expect(await turn.locator('#ranking-table tbody tr').count()).toBeGreaterThan(1)
    await turn.locator('.citation', { hasText: 'S1' }).first().click()
    const panel = page.locator('#source-panel')
    await expect.poll(() => panel.locator('.meta').last().textContent()).toMatch(/text unit \d+/)
    expect(((await panel.locator('.passage').textContent()) ?? '').length).toBeGreaterThan(100)
  })

  it('the Ask parameters go with the question; an offline answer shows its passages, their sources clickable', async () => {
    await page.click('#ask-params summary')
    await page.selectOption('#method', 'local')
    await page.fill('#param-level', '1')
    await page.fill('#param-response-type', 'Single Sentence')
    // No history: the model must not see the earlier questions.
    await page.fill('#param-history', '0')
    await page.fill('#param-top-k', '3')
    await page.fill('#param-context-tokens', '4000')
    expect(await page.locator('#param-budget').count()).toBe(0)
    const before = fake.requests.length
    await page.fill('#question', 'Who kept watch over the harbour?')
    await page.click('#ask')
    await page.locator('.turn[data-done="true"]').nth(3).waitFor()
    expect(queries.at(-1)).toMatchObject({
      method: 'local',
      community_level: 1,
      response_type: 'Single Sentence',
      history: [],
      top_k: 3,
      max_context_tokens: 4000,
    })
    const last = page.locator('.turn[data-done="true"]').nth(3)
    expect(await last.locator('.error').count()).toBe(0)
    const seen = JSON.stringify(fake.requests.slice(before).map((r) => r.body))
    expect(seen).toContain('Single Sentence')
    expect(seen).not.toContain('What happened in the storm?')
    // Lazy's budget is offered for lazy search only, and sent with it.
    await page.selectOption('#method', 'lazy')
    await page.fill('#param-budget', '7')
    expect(await page.inputValue('#param-budget')).toBe('7')

    // Graph search has no chat model here: its offline answer is its best passages, not the whole context.
    await page.selectOption('#method', 'graph')
    expect(await page.locator('#param-top-k').count()).toBe(0)
    expect(await page.locator('#method option:checked').textContent()).toMatch(/chunk graph/)
    await page.fill('#question', 'Where did the storm hit the harbour?')
    await page.click('#ask')
    const turn = page.locator('.turn[data-done="true"]').nth(4)
    await turn.waitFor()
    expect(await turn.locator('h4', { hasText: 'Best passages' }).count()).toBe(1)
    expect(await turn.locator('h4', { hasText: 'Context' }).count()).toBe(0)
    expect(await turn.locator('#context-sources .citation').count()).toBeGreaterThan(0)
    const cited = turn.locator('.answer ol .citation').first()
    expect(await cited.textContent()).toMatch(/^Source \d+$/)
    await cited.click()
    const panel = page.locator('#source-panel')
    await expect.poll(() => panel.locator('.document-title').textContent()).toContain(CHAPTERS[0])
    expect(((await panel.locator('.passage').textContent()) ?? '').length).toBeGreaterThan(100)
    // "Prompt only": the card shows the messages the model would be sent, and no model is asked.
    await page.selectOption('#method', 'local')
    await page.selectOption('#param-show', 'prompt')
    const asked = fake.requests.length
    await page.fill('#question', 'Who kept the harbour light?')
    await page.click('#ask')
    const promptTurn = page.locator('.turn[data-done="true"]').nth(5)
    await promptTurn.waitFor()
    expect(queries.at(-1)).toMatchObject({ method: 'local', prompt_only: true })
    expect(await promptTurn.textContent()).toContain('---system---')
    expect(fake.requests.slice(asked).filter((r) => r.kind !== 'embedding')).toEqual([])
    await page.selectOption('#param-show', 'answer')
    await page.fill('#param-history', '10')
  })

  it('the graph page draws the live index; search opens an entity with its source passages; neighbourhood only', async () => {
    await page.click('#tab-graph')
    await page.waitForSelector('#graph-host[data-ready="true"]', { timeout: 20_000 })
    await onScreen(page.locator('#search'))
    await onScreen(page.locator('#level'))
    // The entity with the fewest neighbours, so that its neighbourhood is the smallest part of the graph.
    const graph = (await (
      await fetch(`${server.url}/ui/graph`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as ViewerData
    const neighbours = new Map(graph.nodes.map((n) => [n.key, new Set<string>()]))
    const touching = new Map(graph.nodes.map((n) => [n.key, 0]))
    for (const [s, t] of graph.edges) {
      const [a, b] = [graph.nodes[s]!.key, graph.nodes[t]!.key]
      neighbours.get(a)!.add(b)
      neighbours.get(b)!.add(a)
      touching.set(a, touching.get(a)! + 1)
      if (b !== a) touching.set(b, touching.get(b)! + 1)
    }
    const [entity, near] = [...neighbours.entries()]
      .filter(([, set]) => set.size > 0)
      .sort((x, y) => x[1].size - y[1].size || (x[0] < y[0] ? -1 : 1))[0]!
    await labelsInside()
    await page.fill('#search', entity.toLowerCase())
    await page.press('#search', 'Enter')
    const details = page.locator('#details')
    await onScreen(details)
    expect(await details.locator('h2').textContent()).toBe(entity)
    await onScreen(details.locator('.passages blockquote'))
    // A graph of thousands of relationships opens in the neighbourhood view (the whole is a grey hairball).
    expect(await page.isChecked('#neighbourhood-toggle')).toBe(graph.edges.length > 2_000)
    await page.uncheck('#neighbourhood-toggle')
    expect(await page.evaluate('graphragViewer.visible()')).toEqual({
      nodes: graph.nodes.length,
      edges: touching.get(entity),
    })
    await page.check('#neighbourhood-toggle')
    // Only the entity, its neighbours and the relationships between it and them are drawn.
    expect(await page.evaluate('graphragViewer.visible()')).toEqual({
      nodes: near.size + 1,
      edges: touching.get(entity),
    })
    expect(near.size + 1).toBeLessThan(graph.nodes.length)
    await page.screenshot({ path: join(root, 'graph.png') })

    // Expand: the entity's neighbourhood stays drawn while a neighbour is selected; collapse takes it away.
    await page.click('#expand-toggle')
    const next = [...near].sort()[0]!
    await page.evaluate(`graphragViewer.select(${JSON.stringify(next)})`)
    const grown = new Set([entity, ...near, next, ...neighbours.get(next)!])
    expect(((await page.evaluate('graphragViewer.visible()')) as { nodes: number }).nodes).toBe(grown.size)
    await page.evaluate(`graphragViewer.select(${JSON.stringify(entity)})`)
    expect(await page.locator('#expand-toggle').textContent()).toMatch(/^Collapse/)
    await page.click('#expand-toggle')
    await page.evaluate(`graphragViewer.select(${JSON.stringify(next)})`)
    expect(((await page.evaluate('graphragViewer.visible()')) as { nodes: number }).nodes).toBe(
      neighbours.get(next)!.size + 1,
    )

    // Corrections: a rename and a type become curation.yaml rules (applied by the next update); an
    // unknown entity to merge into is refused, with the server's message in the panel.
    await page.evaluate(`graphragViewer.select(${JSON.stringify(entity)})`)
    await page.click('#details .curate summary')
    await page.fill('#curate-rename', `${entity} RENAMED`)
    await page.click('#curate-rename-go')
    await page.locator('#curate-status', { hasText: /^Rule added/ }).waitFor()
    await page.fill('#curate-type', 'VESSEL')
    await page.click('#curate-type-go')
    await page.locator('#curate-status', { hasText: /set_type/ }).waitFor()
    expect(await page.isVisible('#curate-apply')).toBe(true)
    await page.fill('#curate-merge', 'Nobody At All')
    await page.click('#curate-merge-go')
    await page.locator('#curate-status', { hasText: /Nobody At All/ }).waitFor()
    const rules = await readFile(join(root, 'curation.yaml'), 'utf8')
    expect(rules).toContain(`to: ${entity} RENAMED`)
    expect(rules).toMatch(/action: set_type[\s\S]*type: VESSEL/)
    expect(rules).not.toContain('Nobody At All')
    expect((await readFile(join(root, 'curation.audit.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2)

    // Filters: only the entities of one type, then of one community, with the relationships between them.
    await page.evaluate('graphragViewer.select(undefined)')
    await page.uncheck('#neighbourhood-toggle')
    const kept = (keep: (n: ViewerData['nodes'][number]) => boolean) => ({
      nodes: graph.nodes.filter(keep).length,
      edges: graph.edges.filter(([a, b]) => keep(graph.nodes[a]!) && keep(graph.nodes[b]!)).length,
    })
    const type = graph.nodes[0]!.type
    await page.selectOption('#type-filter', type)
    expect(await page.evaluate('graphragViewer.visible()')).toEqual(kept((n) => n.type === type))
    await page.selectOption('#type-filter', '')
    const community = graph.nodes[0]!.community
    await page.selectOption('#community-filter', String(community))
    expect(await page.evaluate('graphragViewer.visible()')).toEqual(kept((n) => n.community === community))
    expect(kept((n) => n.community === community).nodes).toBeLessThan(graph.nodes.length)
    await page.selectOption('#community-filter', '')

    // Fullscreen, and back.
    await page.click('#fullscreen')
    await expect.poll(() => page.evaluate('document.fullscreenElement?.id')).toBe('graph-host')
    await page.click('#fullscreen')
    await expect.poll(() => page.evaluate('document.fullscreenElement?.id ?? null')).toBe(null)
    // Another community level: the server builds that level's data and the viewer is drawn again.
    expect(graph.levels.length).toBeGreaterThan(1)
    const deepest = graph.levels.at(-1)!
    await page.selectOption('#level', String(deepest))
    await expect.poll(() => page.locator('#stats').textContent()).toContain(`communities at level ${deepest}`)
    await page.waitForSelector('#graph-host[data-ready="true"]')
    expect(await page.inputValue('#level')).toBe(String(deepest))
  })

  it('documents: upload a file, watch the update finish, delete it', async () => {
    await page.click('#tab-documents')
    const unavailable = page.locator('#documents-unavailable')
    const table = page.locator('#documents-table')
    await Promise.race([unavailable.waitFor(), table.waitFor()])
    // The server serves /documents: a page saying the API is missing (a 404) is a failure, not a skip.
    expect(await unavailable.isVisible(), 'the documents page says the server has no /documents API').toBe(false)
    await onScreen(page.locator('#dropzone'))
    await page.setInputFiles('#file-input', {
      name: 'lighthouse.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        'The Lighthouse\n\nThe keeper of the North Light, Mara Quill, logged the storm hour by hour.\n',
      ),
    })
    const row = page.locator('#documents-table tr', { hasText: 'lighthouse' })
    await row.waitFor()
    await page.waitForSelector('#job[data-state="done"]', { timeout: 60_000 })
    await onScreen(page.locator('#job'))
    await row.locator('button.delete').click()
    await row.locator('button.danger').click()
    await row.waitFor({ state: 'detached', timeout: 60_000 })
    await page.waitForSelector('#job[data-state="done"]', { timeout: 60_000 })
  })

  it('at 360 px every page fits the width, the source panel sits below the answer; the dark theme follows the system', async () => {
    const light = await page.evaluate('getComputedStyle(document.body).backgroundColor')
    await page.setViewportSize({ width: 360, height: 740 })
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).not.toBe(light)
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(21, 25, 30)')
    /** Neither the document nor the page's scrolling box scrolls sideways. */
    const fits = async (name: string) =>
      expect(
        await page.evaluate(`[document.scrollingElement, document.querySelector('main.page')]
          .map((e) => e.scrollWidth - e.clientWidth)`),
        name,
      ).toEqual([0, 0])
    await page.click('#tab-ask')
    await page.locator('.turn .citation').first().click()
    const conversation = (await page.locator('.conversation').boundingBox())!
    const panel = (await page.locator('#source-panel').boundingBox())!
    expect(panel.y).toBeGreaterThanOrEqual(conversation.y + conversation.height - 1)
    await fits('ask')
    await page.screenshot({ path: join(root, 'ask-360.png') })
    await page.click('#tab-graph')
    await page.waitForSelector('#graph-host[data-ready="true"]', { timeout: 20_000 })
    await fits('graph')
    await labelsInside()
    await page.click('#tab-documents')
    await page.locator('#documents-table').waitFor()
    await fits('documents')
    await page.click('#tab-status')
    await page.locator('#index-state').waitFor()
    await fits('status')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1100, height: 720 })
  })

  it('the status page shows the index, its tables, the models and the last run', async () => {
    await page.click('#tab-status')
    await onScreen(page.locator('#index-state.ok'))
    expect(await page.locator('#tables').textContent()).toContain('entities')
    expect(await page.locator('.models').textContent()).toContain('default_completion_model')
    expect(await page.locator('#run-cost').textContent()).toMatch(/model calls .* cost/)
    await page.screenshot({ path: join(root, 'status.png') })
    // Back on Ask, the conversation is still there after the visits to the other pages.
    await page.click('#tab-ask')
    await onScreen(page.locator('#question'))
    expect(await page.locator('.turn[data-done="true"]').count()).toBe(6)
    expect(errors.join('\n')).toBe('')
  })
})
