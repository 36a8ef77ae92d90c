import { describe, expect, it } from 'vitest'
import { relativeToRoot } from '../../src/index/workflows/root-relative.js'

describe('relativeToRoot', () => {
  it('writes paths inside the root relative to it and leaves everything else alone', () => {
    const material = {
      base_dir: '/p/input',
      prompt: '/p/prompts/x.txt',
      root: '/p',
      other: '/pp/input',
      shared: '/elsewhere/y.txt',
      n: 3,
      list: ['/p/a', 'text'],
    }
    expect(relativeToRoot(material, '/p')).toEqual({
      base_dir: 'input',
      prompt: 'prompts/x.txt',
      root: '.',
      other: '/pp/input',
      shared: '/elsewhere/y.txt',
      n: 3,
      list: ['a', 'text'],
    })
  })
})
