import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseClaimReply, readClaimReply } from '../../../src/index/operations/extract-covariates/parse.js'
import { PROJECT_ROOT } from '../../support/shared.js'

const reply = (name: string) =>
  readFileSync(join(PROJECT_ROOT, 'fixtures', 'model-output', 'extract-claims', name), 'utf8')

describe('parseClaimReply', () => {
  it('reads well-formed claims, the last one glued to <|COMPLETE|>', () => {
    const { claims, dropped } = parseClaimReply(reply('well-formed.txt'))
    expect(dropped).toEqual([])
    expect(claims).toEqual([
      {
        subject_id: 'EBENEZER SCROOGE',
        object_id: 'BOB CRATCHIT',
        type: 'LABOUR EXPLOITATION',
        status: 'TRUE',
        start_date: '1843-12-24T00:00:00',
        end_date: '1843-12-24T00:00:00',
        description: 'Scrooge keeps his clerk working in a freezing office with a tiny fire on Christmas Eve',
        source_text:
          "Scrooge had a very small fire, but the clerk's fire was so very much smaller that it looked like one coal.",
      },
      {
        subject_id: 'JACOB MARLEY',
        object_id: 'NONE',
        type: 'DEATH',
        status: 'TRUE',
        start_date: 'NONE',
        end_date: 'NONE',
        description: 'Marley has been dead for seven years',
        source_text: 'Marley was dead: to begin with.',
      },
    ])
  })

  it('splits records on line breaks, ignores chatter, keeps a claim without source text, drops short ones', () => {
    const { claims, dropped } = parseClaimReply(reply('broken.txt'))
    expect(claims.map((c) => [c.subject_id, c.object_id, c.type, c.source_text])).toEqual([
      ['EBENEZER SCROOGE', 'NONE', 'MISERLINESS', 'Oh! But he was a tight-fisted hand at the grind-stone, Scrooge!'],
      ['FRED', 'EBENEZER SCROOGE', 'INVITATION', null],
    ])
    expect(dropped).toEqual([{ text: '(the ghost<|>scrooge<|>haunting)', reason: 'claim with 3 fields (expected 8)' }])
  })

  it('returns nothing for a bare completion marker', () => {
    expect(parseClaimReply('<|COMPLETE|>')).toEqual({ claims: [], dropped: [] })
  })
})

describe('claims written as Markdown fields', () => {
  it('reads all four claims with their dates split, missing fields null', () => {
    const { claims, dropped } = parseClaimReply(reply('markdown-fields.txt'))
    expect(dropped).toEqual([])
    expect(claims.map((c) => [c.subject_id, c.object_id, c.type, c.status, c.start_date, c.end_date])).toEqual([
      ['EBENEZER SCROOGE', 'BOB CRATCHIT', 'LABOUR EXPLOITATION', 'TRUE', '1843-12-24T00:00:00', '1843-12-24T00:00:00'],
      ['JACOB MARLEY', 'NONE', 'DEATH', 'TRUE', 'NONE', 'NONE'],
      ['EBENEZER SCROOGE', 'FRED', 'REFUSAL', 'TRUE', 'NONE', 'NONE'],
      ['EBENEZER SCROOGE', 'CHARITY COLLECTORS', 'REFUSAL TO DONATE', 'SUSPECTED', null, null],
    ])
    expect(claims[0]!.description).toBe('Scrooge keeps his clerk working in a freezing office on Christmas Eve')
    expect(claims[1]!.source_text).toBe('Marley was dead: to begin with.')
    expect(claims[3]!.source_text).toBeNull()
  })

  it('is not read when the reply holds tuple claims', () => {
    const mixed = `${reply('well-formed.txt')}\n- **Subject**: Fred\n- **Object**: NONE\n`
    expect(parseClaimReply(mixed).claims.map((c) => c.subject_id)).toEqual(['EBENEZER SCROOGE', 'JACOB MARLEY'])
  })
})

describe('parseClaimReply preamble, completion markers and chatter', () => {
  it('reads a claim on the preamble line, joins a wrapped line and stops at a bare COMPLETE and chatter', () => {
    const { claims, dropped } = parseClaimReply(reply('chatty.txt'))
    expect(dropped).toEqual([])
    expect(claims.map((c) => [c.subject_id, c.object_id, c.type, c.source_text])).toEqual([
      ['EBENEZER SCROOGE', 'BOB CRATCHIT', 'UNDERPAYMENT', 'Bob had but fifteen "Bob" a-week himself'],
      [
        'EBENEZER SCROOGE',
        'NONE',
        'MISANTHROPY',
        'If they would rather die, they had better do it, and decrease the surplus population.',
      ],
    ])
  })
})

describe('readClaimReply', () => {
  const template = readFileSync(join(PROJECT_ROOT, 'prompts', 'extract_claims.txt'), 'utf8')
  const inputText = 'Scrooge underpaid his clerk Bob Cratchit in 1843.'
  const claim = '(SCROOGE<|>BOB CRATCHIT<|>UNDERPAYMENT<|>TRUE<|>NONE<|>NONE<|>Scrooge underpaid Cratchit<|>underpaid)'

  it('reads the answer after a thinking block, never the thinking', () => {
    const read = readClaimReply(
      `<think>Example: (VELLMAR HARBOUR AUTHORITY<|>NONE<|>X<|>TRUE<|>NONE<|>NONE<|>d<|>s)</think>\n${claim}\n<|COMPLETE|>`,
      { template, inputText },
    )
    expect(read.claims.map((c) => c.subject_id)).toEqual(['SCROOGE'])
    expect(read.unusable).toBeUndefined()
  })

  it('drops claims copied from the examples (NONE as object is not a copy) and calls an echo unusable', () => {
    const echo =
      '(VELLMAR HARBOUR AUTHORITY<|>COASTAL SAFETY BOARD<|>FALSE REPORTING<|>SUSPECTED<|>NONE<|>NONE<|>d<|>s)'
    const mixed = readClaimReply(`${echo}\n##\n${claim.replace('BOB CRATCHIT', 'NONE')}`, { template, inputText })
    expect(mixed.claims.map((c) => c.subject_id)).toEqual(['SCROOGE'])
    expect(mixed.dropped.map((d) => d.reason)).toEqual(["copied from the prompt's examples, not in the text"])
    expect(readClaimReply(echo, { template, inputText }).unusable).toBe("an echo of the prompt's examples")
  })

  it.each([
    ["I'm sorry, but I can't help with that.", true],
    ['Sure! Which claims would you like me to look for?', true],
    ['<think>Let me list the claims about Scrooge', true],
    ['<|COMPLETE|>', false],
    ['There are no claims in this text.', false],
  ])('%s → unusable: %s', (text, unusable) => {
    const read = readClaimReply(text, { template, inputText })
    expect(read.claims).toEqual([])
    expect(read.unusable !== undefined).toBe(unusable)
  })
})
