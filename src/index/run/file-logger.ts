/** The run log (`<reporting.base_dir>/indexing-engine.log`), appended in the reference's line format. */
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Logger } from '../../logger.js'

type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR'

export function createFileLogger(path: string, options: { verbose: boolean; secrets?: readonly string[] }): Logger {
  mkdirSync(dirname(path), { recursive: true })
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4)
  const write = (level: Level, message: string) => {
    let text = message
    for (const secret of secrets) text = text.split(secret).join('==== REDACTED ====')
    appendFileSync(path, `${timestamp(new Date())} - ${level} - graphrag - ${text}\n`)
  }
  return {
    debug: (m) => {
      if (options.verbose) write('DEBUG', m)
    },
    info: (m) => write('INFO', m),
    warn: (m) => write('WARNING', m),
    error: (m) => write('ERROR', m),
  }
}

function timestamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 4)}`
}
