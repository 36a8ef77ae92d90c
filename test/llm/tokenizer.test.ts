import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { encodingForModel, getTokenizer } from '../../src/llm/tokenizer.js'

describe('encodingForModel', () => {
  it.each([
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4o-2024-08-06',
    'chatgpt-4o-latest',
    'gpt-4.1',
    'gpt-4.1-mini-2025-04-14',
    'gpt-4.1-nano',
    'gpt-4.5-preview',
    'gpt-5',
    'gpt-5-mini',
    'o1',
    'o1-mini',
    'o3',
    'o3-mini',
    'o4-mini',
    'gpt-oss-120b',
    'GPT-4o',
    'openai/gpt-4.1',
    'azure/o3-mini',
  ])('uses o200k_base for %s', (model) => {
    expect(encodingForModel(model)).toBe('o200k_base')
  })

  it.each([
    'gpt-4',
    'gpt-4-turbo',
    'gpt-4-0613',
    'gpt-3.5-turbo',
    'text-embedding-3-small',
    'text-embedding-ada-002',
    'llama3.1:8b',
    'mistral-large',
    'openai/gpt-4',
  ])('falls back to cl100k_base for %s', (model) => {
    expect(encodingForModel(model)).toBe('cl100k_base')
  })

  it('lets encoding_model override the family, and ignores an empty or null override', () => {
    expect(encodingForModel('gpt-4o', 'cl100k_base')).toBe('cl100k_base')
    expect(encodingForModel('llama3.1:8b', 'o200k_base')).toBe('o200k_base')
    expect(encodingForModel('gpt-4o', null)).toBe('o200k_base')
    expect(encodingForModel('gpt-4o', '')).toBe('o200k_base')
    expect(encodingForModel('gpt-4', undefined)).toBe('cl100k_base')
  })

  it('picks encodings that really tokenise differently', () => {
    // o200k's larger vocabulary covers non-Latin scripts far better, so a wrong family would skew budgets.
    const text = 'नमस्ते दुनिया'
    expect(getTokenizer(encodingForModel('gpt-4o')).count(text)).toBe(5)
    expect(getTokenizer(encodingForModel('gpt-4')).count(text)).toBe(13)
  })
})

describe('known encodings', () => {
  it('accepts the tiktoken encodings and rejects anything else', () => {
    for (const name of ['gpt2', 'r50k_base', 'p50k_base', 'p50k_edit', 'cl100k_base', 'o200k_base'])
      expect(getTokenizer(name).encoding).toBe(name)
    for (const name of ['o200k', 'cl100k', 'CL100K_BASE', '', 'gpt-4o', 'tiktoken'])
      expect(() => getTokenizer(name), name).toThrow(ConfigError)
  })

  it('agrees with getTokenizer, which refuses an unknown encoding with a ConfigError', () => {
    expect(getTokenizer('o200k_base').encoding).toBe('o200k_base')
    expect(() => getTokenizer('o200k')).toThrow(ConfigError)
  })
})
