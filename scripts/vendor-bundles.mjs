// Part of `npm run build` (after tsc): replaces each dist/vendor/<name>.js, a re-export of one
// dependency, with a bundle of that dependency's code, so the CLI loads one file instead of the
// package's many (src/vendor/README.md).
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const dir = fileURLToPath(new URL('../dist/vendor/', import.meta.url))
const entries = readdirSync(dir).filter((f) => f.endsWith('.js'))
await build({
  entryPoints: entries.map((f) => join(dir, f)),
  outdir: dir,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'inline',
  // A CommonJS package bundled as ESM may still require Node's built-ins.
  banner: { js: "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);" },
  logLevel: 'warning',
})
// tsc's source maps describe the re-export, not the bundle.
for (const f of entries) rmSync(join(dir, `${f}.map`), { force: true })
