/**
 * Headless Debian Chromium driven by playwright-core (which downloads no browser). Tests that need a
 * browser use `describeBrowser`: it skips visibly where /usr/bin/chromium is absent, except in CI
 * (CI=true), where .ci/run installs it and a missing browser must fail the run instead.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { describe, it } from 'vitest'

const CHROMIUM = process.env.GRAPHRAG_CHROMIUM ?? '/usr/bin/chromium'

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // With the GPU off, WebGL (which sigma.js draws with) runs on SwiftShader, which Chromium only allows when asked.
  '--enable-unsafe-swiftshader',
  '--use-angle=swiftshader',
]

export function describeBrowser(name: string, body: () => void): void {
  if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
    console.warn(`NOTICE: ${CHROMIUM} is absent (apt-get install chromium); browser tests are skipped.`)
    describe.skip(`${name} (skipped: no chromium)`, () => {
      it.skip('needs Debian chromium at /usr/bin/chromium')
    })
    return
  }
  describe(name, body)
}

export interface Browser {
  context: BrowserContext
  close(): Promise<void>
}

/** A fresh profile in a temporary folder, so no state leaks between runs. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'graphrag-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 720 },
  })
  return {
    context,
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
