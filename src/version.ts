/** The package version, read once from package.json (part of resume fingerprints and --version). */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const packageJson = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json')

export const VERSION: string = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
