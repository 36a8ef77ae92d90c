// Sentence-level relevance: a relevance test shows each unit's sentences numbered, the reply names the
// helpful ones, and only those go on to the claim step; and the budget a walk leaves unspent is passed
// on to the walks the budget stopped, in sub-question order.
import { describe, expect, it } from 'vitest'
import { passOnUnspent } from '../../../src/query/lazy/budget.js'
import { relevantSentences, type SentencePassage } from '../../../src/query/lazy/model-steps.js'
import { sentenceBlock } from '../../../src/query/lazy/prompts.js'
import { topicalExcerpt, topicalSentences } from '../../../src/text/excerpt.js'
import { lazyPassages, numberedSentences } from '../../support/fake-llm/lazy.js'

const passages: SentencePassage[] = [
  { id: 'u3', label: '3', sentences: ['The lifeboat went out.', 'It came back at dawn.', 'Gulls cried.'] },
  { id: 'u12', label: '12', sentences: ['The council met.'] },
]

describe('relevance replies per sentence', () => {
  it('keeps the sentences named for each passage, in text order', () => {
    const found = relevantSentences({ '3': [3, 1], '12': [1] }, passages)
    expect([...found]).toEqual([
      ['u3', ['The lifeboat went out.', 'Gulls cried.']],
      ['u12', ['The council met.']],
    ])
  })

  it('leaves out passages not named and passages named with an empty list', () => {
    expect([...relevantSentences({ '12': [] }, passages)]).toEqual([])
    expect([...relevantSentences({}, passages)]).toEqual([])
    expect([...relevantSentences({ '99': [1] }, passages)]).toEqual([])
  })

  it('takes a passage as a whole when no usable sentence number is given, or the reply lists passages only', () => {
    const whole = ['The lifeboat went out.', 'It came back at dawn.', 'Gulls cried.']
    expect(relevantSentences({ '3': [7] }, passages).get('u3')).toEqual(whole)
    expect(relevantSentences({ '3': true }, passages).get('u3')).toEqual(whole)
    expect([...relevantSentences([3, '12'], passages).keys()]).toEqual(['u3', 'u12'])
    expect([...relevantSentences('no', passages)]).toEqual([])
  })

  it('numbers each passage sentence, one a line, as the fake model reads them back', () => {
    const block = sentenceBlock('Who rowed?', [{ label: '3', sentences: ['The lifeboat\nwent out.', 'Back at dawn.'] }])
    expect(block).toBe('Question: Who rowed?\n\n==== passage 3 ====\n[1] The lifeboat went out.\n[2] Back at dawn.')
    const read = lazyPassages(block)
    expect(read.passages.map((p) => p.label)).toEqual(['3'])
    expect(numberedSentences(read.passages[0]!.text)).toEqual([
      { n: 1, text: 'The lifeboat went out.' },
      { n: 2, text: 'Back at dawn.' },
    ])
  })

  it('gives the sentences of the topical excerpt, which joins them', () => {
    const count = (text: string) => text.split(/\s+/).length
    const text = 'The fog lay on the bay. Marta Quill rowed the lifeboat out. Nobody slept. The lifeboat came back.'
    expect(topicalSentences(text, 'Who rowed the lifeboat?', 20, count)).toEqual([
      'Marta Quill rowed the lifeboat out.',
      'The lifeboat came back.',
    ])
    expect(topicalExcerpt(text, 'Who rowed the lifeboat?', 20, count)).toBe(
      'Marta Quill rowed the lifeboat out. … The lifeboat came back.',
    )
  })
})

describe('unspent budget passed on', () => {
  it('gives what a walk ended by the stop rule left to the walks the budget ended, in sub-question order', () => {
    const shares = [34, 33, 33]
    const done = [false, false, false]
    const rerun = passOnUnspent(
      shares,
      [
        { spent: 9, stop: 'exhausted' },
        { spent: 33, stop: 'budget' },
        { spent: 33, stop: 'budget' },
      ],
      done,
    )
    // 25 unspent: 13 to the first taker, 12 to the second.
    expect(shares).toEqual([9, 46, 45])
    expect(done).toEqual([true, false, false])
    expect(rerun).toEqual([1, 2])
  })

  it('never gives to a walk that ended by the stop rule, and keeps the total', () => {
    const shares = [9, 46, 45]
    const done = [true, false, false]
    const rerun = passOnUnspent(
      shares,
      [
        { spent: 9, stop: 'exhausted' },
        { spent: 46, stop: 'budget' },
        { spent: 40, stop: 'exhausted' },
      ],
      done,
    )
    expect(shares).toEqual([9, 51, 40])
    expect(rerun).toEqual([1])
    expect(shares.reduce((a, b) => a + b)).toBe(100)
  })

  it('runs nothing again when nothing is left over or nobody can take it', () => {
    const all = [10, 10]
    expect(
      passOnUnspent(
        all,
        [
          { spent: 10, stop: 'budget' },
          { spent: 10, stop: 'budget' },
        ],
        [false, false],
      ),
    ).toEqual([])
    const spentOut = [10, 10]
    expect(
      passOnUnspent(
        spentOut,
        [
          { spent: 4, stop: 'exhausted' },
          { spent: 6, stop: 'exhausted' },
        ],
        [false, false],
      ),
    ).toEqual([])
    expect(spentOut).toEqual([4, 6])
  })

  it('runs again only the walks given more when less is left than there are takers', () => {
    const shares = [5, 5, 5]
    const rerun = passOnUnspent(
      shares,
      [
        { spent: 5, stop: 'budget' },
        { spent: 4, stop: 'exhausted' },
        { spent: 5, stop: 'budget' },
      ],
      [false, false, false],
    )
    expect(shares).toEqual([6, 4, 5])
    expect(rerun).toEqual([0])
  })
})
