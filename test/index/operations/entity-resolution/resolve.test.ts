import { describe, expect, it } from 'vitest'
import type { CurationRule } from '../../../../src/config/curation-file.js'
import { resolveGraph, type ResolutionOptions } from '../../../../src/index/operations/entity-resolution/resolve.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../../src/model/raw-graph.js'

const entity = (title: string, units: string[], type = 'ORGANIZATION'): RawEntityRow => ({
  title,
  type,
  description: [`${title} desc`],
  text_unit_ids: units,
  frequency: units.length,
})
const rel = (source: string, target: string, weight: number, units = ['u1']): RawRelationshipRow => ({
  source,
  target,
  description: [`${source}->${target}`],
  text_unit_ids: units,
  weight,
})

const options = (over: Partial<ResolutionOptions> = {}): ResolutionOptions => ({
  normalize: true,
  plurals: true,
  noise: { minNameLength: 2, stopWords: new Set(['the', 'a']) },
  rules: [],
  ...over,
})

describe('resolveGraph: names', () => {
  const ferry = [
    entity('THE FERRY COOPERATIVE', ['u1', 'u2']),
    entity('FERRY-COOPERATIVE', ['u3']),
    entity('FERRY COOPERATIVE', ['u4', 'u5']),
    entity('NELL HARROW', ['u1'], 'PERSON'),
  ]
  const rels = [
    rel('NELL HARROW', 'THE FERRY COOPERATIVE', 2, ['u1']),
    rel('NELL HARROW', 'FERRY COOPERATIVE', 3, ['u4']),
    rel('FERRY-COOPERATIVE', 'FERRY COOPERATIVE', 1, ['u3']),
  ]

  it('merges three spellings into one: the most frequent, then the shortest, keeps its title; every alias kept', () => {
    const out = resolveGraph(ferry, rels, options())
    expect(out.entities.map((e) => e.title)).toEqual(['FERRY COOPERATIVE', 'NELL HARROW'])
    const merged = out.entities[0]!
    expect(merged.text_unit_ids).toEqual(['u1', 'u2', 'u3', 'u4', 'u5'])
    expect(merged.frequency).toBe(5)
    expect(merged.description).toEqual([
      'THE FERRY COOPERATIVE desc',
      'FERRY-COOPERATIVE desc',
      'FERRY COOPERATIVE desc',
    ])
    expect(out.aliases.map((a) => a.alias)).toEqual(['THE FERRY COOPERATIVE', 'FERRY-COOPERATIVE'])
    expect(out.merged).toBe(2)
    // Relationships rewired; the pair between two spellings would be a self-loop and is dropped.
    expect(out.relationships.map((r) => [r.source, r.target, r.weight, r.text_unit_ids])).toEqual([
      ['NELL HARROW', 'FERRY COOPERATIVE', 5, ['u1', 'u4']],
    ])
    expect(out.droppedSelfLoops).toBe(1)
  })

  it('is deterministic: the input order never changes the winner (ties broken by code-point order)', () => {
    const tie = [entity('FERRY-COOPERATIVE', ['u1']), entity('FERRY COOPERATIVE', ['u2'])]
    const a = resolveGraph(tie, [], options())
    const b = resolveGraph([...tie].reverse(), [], options())
    expect(a.entities.map((e) => e.title)).toEqual(['FERRY COOPERATIVE'])
    expect(b.entities.map((e) => e.title)).toEqual(['FERRY COOPERATIVE'])
  })

  it('merges simple plurals when plurals is on, not when off', () => {
    const boats = [entity('FISHING BOAT', ['u1', 'u2']), entity('FISHING BOATS', ['u3'])]
    expect(resolveGraph(boats, [], options()).entities.map((e) => e.title)).toEqual(['FISHING BOAT'])
    expect(resolveGraph(boats, [], options({ plurals: false })).entities).toHaveLength(2)
  })

  it('normalize off keeps exact titles', () => {
    const out = resolveGraph(ferry, rels, options({ normalize: false }))
    expect(out.entities).toHaveLength(4)
    expect(out.aliases).toEqual([])
  })
})

describe('resolveGraph: noise', () => {
  it('drops noise names with their relationships and counts them by reason, never collapsing them into one', () => {
    const noisy = [
      entity('A', ['u1']),
      entity('--', ['u1']),
      entity('!!!', ['u2']),
      entity('X', ['u2']),
      entity('1961', ['u2']),
      entity('KITTIWAKE', ['u1', 'u2']),
    ]
    const out = resolveGraph(
      noisy,
      [rel('A', 'KITTIWAKE', 1), rel('--', 'X', 1), rel('KITTIWAKE', '1961', 1)],
      options(),
    )
    expect(out.entities.map((e) => e.title)).toEqual(['KITTIWAKE'])
    expect(out.dropped).toEqual({ empty: 2, symbols: 1, too_short: 2, stop_words: 0, generic: 0 })
    expect(out.droppedRelationships).toBe(3)
    expect(out.relationships).toEqual([])
  })

  it('keeps everything when noise control is off', () => {
    const out = resolveGraph([entity('X', ['u1']), entity('Y', ['u1'])], [], options({ noise: undefined }))
    expect(out.entities).toHaveLength(2)
  })
})

describe('resolveGraph: curation rules', () => {
  const graph = [
    entity('SCROOGE', ['u1', 'u2'], 'PERSON'),
    entity('EBENEZER', ['u3'], 'PERSON'),
    entity('MARLEY', ['u1'], 'PERSON'),
    entity('FRED', ['u2'], 'PERSON'),
  ]
  const rels = [rel('SCROOGE', 'MARLEY', 2), rel('EBENEZER', 'MARLEY', 1, ['u3']), rel('FRED', 'SCROOGE', 1, ['u2'])]
  const curate = (rules: CurationRule[]) => resolveGraph(graph, rels, options({ rules }))

  it('merge: descriptions, text units and relationships join the target; the source is an alias', () => {
    const out = curate([{ action: 'merge', entity: 'ebenezer', into: 'Scrooge' }])
    expect(out.entities.map((e) => e.title)).toEqual(['SCROOGE', 'MARLEY', 'FRED'])
    expect(out.entities[0]!.text_unit_ids).toEqual(['u1', 'u2', 'u3'])
    expect(out.entities[0]!.description).toEqual(['SCROOGE desc', 'EBENEZER desc'])
    expect(out.relationships.map((r) => [r.source, r.target, r.weight])).toEqual([
      ['SCROOGE', 'MARLEY', 3],
      ['FRED', 'SCROOGE', 1],
    ])
    expect(out.aliases).toEqual([{ title: 'SCROOGE', alias: 'EBENEZER', normalized: 'ebenezer' }])
    expect(out.applied).toBe(1)
  })

  it('rename: the title changes everywhere and the old one is an alias; renaming onto another entity merges them', () => {
    const out = curate([{ action: 'rename', entity: 'MARLEY', to: 'JACOB MARLEY' }])
    expect(out.entities.map((e) => e.title)).toContain('JACOB MARLEY')
    expect(out.relationships.map((r) => r.target)).toEqual(['JACOB MARLEY', 'JACOB MARLEY', 'SCROOGE'])
    expect(out.aliases).toEqual([{ title: 'JACOB MARLEY', alias: 'MARLEY', normalized: 'marley' }])
    // Renamed back: the current title is never also listed as its own alias.
    const back = curate([
      { action: 'rename', entity: 'MARLEY', to: 'JACOB MARLEY' },
      { action: 'rename', entity: 'JACOB MARLEY', to: 'MARLEY' },
    ])
    expect(back.aliases).toEqual([{ title: 'MARLEY', alias: 'JACOB MARLEY', normalized: 'jacob marley' }])
    const onto = curate([{ action: 'rename', entity: 'EBENEZER', to: 'SCROOGE' }])
    expect(onto.entities.map((e) => e.title)).toEqual(['SCROOGE', 'MARLEY', 'FRED'])
  })

  it('set_type, delete, delete_relationship and add_relationship', () => {
    const out = curate([
      { action: 'set_type', entity: 'FRED', type: 'NEPHEW' },
      { action: 'delete', entity: 'EBENEZER' },
      { action: 'delete_relationship', source: 'SCROOGE', target: 'FRED' },
      { action: 'add_relationship', source: 'FRED', target: 'MARLEY', description: 'never met', weight: 2 },
    ])
    expect(out.entities.map((e) => [e.title, e.type])).toEqual([
      ['SCROOGE', 'PERSON'],
      ['MARLEY', 'PERSON'],
      ['FRED', 'NEPHEW'],
    ])
    expect(out.relationships.map((r) => [r.source, r.target, r.description, r.weight])).toEqual([
      ['SCROOGE', 'MARLEY', ['SCROOGE->MARLEY'], 2],
      ['FRED', 'MARLEY', ['never met'], 2],
    ])
    expect(out.applied).toBe(4)
    expect(out.absent).toEqual([])
  })

  it('names an alias: a rule about a merged spelling finds the merged entity', () => {
    const spelled = [...graph, entity('THE SCROOGE', ['u4'], 'PERSON')]
    const out = resolveGraph(
      spelled,
      rels,
      options({ rules: [{ action: 'set_type', entity: 'THE SCROOGE', type: 'MISER' }] }),
    )
    expect(out.entities.find((e) => e.title === 'SCROOGE')!.type).toBe('MISER')
  })

  it('reports every rule that names something absent and changes nothing for it', () => {
    const out = curate([
      { action: 'merge', entity: 'TINY TIM', into: 'SCROOGE' },
      { action: 'delete', entity: 'BOB' },
      { action: 'delete_relationship', source: 'MARLEY', target: 'FRED' },
      { action: 'add_relationship', source: 'FRED', target: 'GHOST', description: 'd' },
    ])
    expect(out.entities).toHaveLength(4)
    expect(out.relationships).toHaveLength(3)
    expect(out.applied).toBe(0)
    expect(out.absent).toEqual([
      'rules[0] (merge): "TINY TIM" not in the graph',
      'rules[1] (delete): "BOB" not in the graph',
      'rules[2] (delete_relationship): "MARLEY — FRED" not in the graph',
      'rules[3] (add_relationship): "GHOST" not in the graph',
    ])
  })
})
