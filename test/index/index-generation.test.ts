import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { runIndex } from '../../src/index/run/runner.js'
import { testdir } from '../support/testdir.js'

describe('index generations: an output folder that holds more than the index', () => {
  it.each([['.'], ['..']])(
    'output_storage.base_dir %s is refused before anything is written (publishing would replace the project)',
    async (dir) => {
      const root = await testdir({
        'settings.yaml': `method: fast\noutput_storage:\n  base_dir: ${dir}\n`,
        'input/a.txt': 'Kettle Harbour.',
      })
      const error = await runIndex({ root, skipValidation: true }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).keyPath).toBe('output_storage.base_dir')
      expect(existsSync(join(root, 'input', 'a.txt'))).toBe(true)
      expect(existsSync(join(root, '..', `.${root.split('/').pop()}.run`))).toBe(false)
    },
  )
})
