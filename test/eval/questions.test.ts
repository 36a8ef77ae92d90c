// Question files: CSV, JSON and JSONL with our field names, public benchmarks' names through --field,
// and one clear error naming the file and row for bad input.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { InputError } from '../../src/errors.js'
import { parseFieldMap, readQuestions } from '../../src/eval/questions.js'
import { testdir } from '../support/testdir.js'

describe('question files', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await testdir()
  })
  const file = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  it('reads CSV: list cells as JSON arrays or one item per line, defaults for id and type', () => {
    const path = file(
      'q.csv',
      'question,answer,evidence,type,assertions\n' +
        '"Who chairs it, then?",Tobias Harrow,"[""01-the-harbour"", ""chairman of the""]",local,"Names Tobias\nSays chairman"\n' +
        'What happened?,,,,\n',
    )
    expect(readQuestions(path)).toEqual([
      {
        id: 'q1',
        question: 'Who chairs it, then?',
        answer: 'Tobias Harrow',
        evidence: ['01-the-harbour', 'chairman of the'],
        type: 'local',
        assertions: ['Names Tobias', 'Says chairman'],
      },
      { id: 'q2', question: 'What happened?', evidence: [], type: 'untyped', assertions: [] },
    ])
  })

  it('reads JSON ({questions: [...]} or an array) and JSONL', () => {
    const one = { id: 'a', question: 'Q?', answer: 'A', evidence: 'doc-1', type: 'global', assertions: ['x'] }
    const expected = { id: 'a', question: 'Q?', answer: 'A', evidence: ['doc-1'], type: 'global', assertions: ['x'] }
    expect(readQuestions(file('q.json', JSON.stringify({ questions: [one] })))).toEqual([expected])
    expect(readQuestions(file('a.json', JSON.stringify([one])))).toEqual([expected])
    const two = { ...one, id: 'b' }
    expect(readQuestions(file('q.jsonl', `${JSON.stringify(one)}\n\n${JSON.stringify(two)}\n`))).toEqual([
      expected,
      { ...expected, id: 'b' },
    ])
  })

  it('maps a HotpotQA-style record with --field: nested paths, [title, sentence] evidence by title', () => {
    const hotpot = [
      {
        _id: '5a8b',
        q: { text: 'Which magazine was started first?' },
        answer: 'Arthur’s Magazine',
        level: 'medium',
        supporting_facts: [
          ["Arthur's Magazine", 0],
          ['First for Women', 0],
          ["Arthur's Magazine", 1],
        ],
      },
    ]
    const fields = parseFieldMap(['id=_id', 'question=q.text', 'evidence=supporting_facts', 'type=level'])
    expect(readQuestions(file('hotpot.json', JSON.stringify(hotpot)), fields)).toEqual([
      {
        id: '5a8b',
        question: 'Which magazine was started first?',
        answer: 'Arthur’s Magazine',
        evidence: ["Arthur's Magazine", 'First for Women'],
        type: 'medium',
        assertions: [],
      },
    ])
  })

  it('says which file and row lack a question, and which --field is wrong', () => {
    const path = file('bad.jsonl', '{"question": "ok?"}\n{"answer": "no question"}\n')
    expect(() => readQuestions(path)).toThrow(InputError)
    expect(() => readQuestions(path)).toThrow(`${path} row 2: no "question" value`)
    expect(() => readQuestions(file('broken.jsonl', '{"question": "ok?"}\n{oops\n'))).toThrow(
      /broken\.jsonl line 2: not valid JSON/,
    )
    expect(() => readQuestions(file('q.txt', 'x'))).toThrow(/unknown question file type "\.txt"/)
    expect(() => readQuestions(file('empty.json', '[]'))).toThrow(/empty\.json: no questions/)
    expect(() => readQuestions(file('obj.json', '{"items": []}'))).toThrow(/expected a JSON array of questions/)
    const twice = file(
      'twice.jsonl',
      '{"id": "a", "question": "x?"}\n{"question": "y?"}\n{"id": "a", "question": "z?"}\n',
    )
    expect(() => readQuestions(twice)).toThrow(`${twice} row 3: id "a" is already used by row 1`)
    expect(() => parseFieldMap(['query=q'])).toThrow(/"query" is not a question field/)
    expect(() => parseFieldMap(['question'])).toThrow(/expected our=theirs/)
  })
})
