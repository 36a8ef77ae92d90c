import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import {
  appendCurationRule,
  auditLogPath,
  parseCurationRules,
  readCurationRules,
} from '../../src/config/curation-file.js'

const parse = (text: string) => parseCurationRules(text, '/p/curation.yaml')

describe('curation.yaml', () => {
  it('reads every action; an empty file or no file means no rules', async () => {
    const rules = parse(`rules:
  - { action: merge, entity: FERRY COOP, into: ALDWICK FERRY COOPERATIVE }
  - { action: rename, entity: OLD, to: NEW }
  - { action: set_type, entity: NEW, type: PLACE }
  - { action: delete, entity: END }
  - { action: delete_relationship, source: A1, target: B1 }
  - { action: add_relationship, source: A1, target: B1, description: knows, weight: 2 }
`)
    expect(rules.map((r) => r.action)).toEqual([
      'merge',
      'rename',
      'set_type',
      'delete',
      'delete_relationship',
      'add_relationship',
    ])
    expect(parse('')).toEqual([])
    expect(parse('rules:\n')).toEqual([])
    const dir = await mkdtemp(join(tmpdir(), 'curation-'))
    expect(await readCurationRules(join(dir, 'curation.yaml'))).toEqual([])
  })

  it('a malformed rule is one error naming the file and the rule', () => {
    const cases: Array<[string, RegExp]> = [
      ['rules:\n  - { action: merge, entity: A }\n', /\/p\/curation\.yaml: rules\[0\]: merge needs a non-empty into/],
      [
        'rules:\n  - { action: delete, entity: A }\n  - { action: explode, entity: B }\n',
        /rules\[1\]: action must be one of merge, rename/,
      ],
      ['rules:\n  - { action: delete, entity: A, into: B }\n', /rules\[0\]: unknown key into for delete/],
      [
        'rules:\n  - { action: add_relationship, source: A, target: B, description: d, weight: -1 }\n',
        /rules\[0\]: weight must be a positive number/,
      ],
      ['rules:\n  - just text\n', /rules\[0\]: a rule must be a map/],
      ['rules: {}\n', /rules must be a list/],
      ['merge: A\n', /expected a map with one key, rules/],
      ['rules: [\n', /\/p\/curation\.yaml: not valid YAML/],
    ]
    for (const [text, message] of cases) {
      expect(() => parse(text)).toThrow(ConfigError)
      expect(() => parse(text)).toThrow(message)
    }
  })

  it('appending keeps the rules and comments already there and writes who/when to the audit log', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'curation-'))
    const file = join(dir, 'curation.yaml')
    await writeFile(file, '# hand-written\nrules:\n  - { action: delete, entity: END }\n')
    await appendCurationRule(
      file,
      { action: 'rename', entity: 'OLD', to: 'NEW' },
      'alice',
      new Date('2026-01-02T03:04:05Z'),
    )
    const text = await readFile(file, 'utf8')
    expect(text).toContain('# hand-written')
    expect(parse(text)).toEqual([
      { action: 'delete', entity: 'END' },
      { action: 'rename', entity: 'OLD', to: 'NEW' },
    ])
    expect(auditLogPath(file)).toBe(join(dir, 'curation.audit.jsonl'))
    expect(JSON.parse(await readFile(auditLogPath(file), 'utf8'))).toEqual({
      at: '2026-01-02T03:04:05.000Z',
      who: 'alice',
      rule: { action: 'rename', entity: 'OLD', to: 'NEW' },
    })
    const fresh = join(dir, 'new.yaml')
    await appendCurationRule(fresh, { action: 'delete', entity: 'X1' }, 'bob', new Date(0))
    expect(parse(await readFile(fresh, 'utf8'))).toEqual([{ action: 'delete', entity: 'X1' }])
  })

  it('refuses to append to a malformed file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'curation-'))
    const file = join(dir, 'curation.yaml')
    await writeFile(file, 'rules:\n  - { action: nope }\n')
    await expect(appendCurationRule(file, { action: 'delete', entity: 'X1' }, 'bob', new Date(0))).rejects.toThrow(
      /rules\[0\]: action must be one of/,
    )
  })
})
