// The offline question generator: cloze questions from text units (a name or number held out, the
// sentence as evidence), theme questions from reports (their documents as evidence), seeded sampling.
import { describe, expect, it } from 'vitest'
import type { Corpus } from '../../src/eval/corpus.js'
import { clozeQuestion, clozeSpan, generateQuestions, reportQuestion } from '../../src/eval/generate.js'
import { supports } from '../../src/eval/metrics/retrieval.js'
import { seededRng } from '../../src/query/rng.js'

const UNIT_TEXT =
  'The Harbour Council\n\nThe Harbour Council meets on the first Tuesday of each month in Aldwick Town Hall. ' +
  'Short one. Marta Quill filed the letter in the council records on 14 November, as she always did.'

function corpus(unitCount: number, reportCount: number): Corpus {
  const units = Array.from({ length: unitCount }, (_, i) => ({
    id: `u${i}`,
    humanReadableId: i,
    text: UNIT_TEXT.replace('Tuesday', `Tuesday ${i}`).replace('14 November', `${i + 1} November`),
    document: `doc-${i % 3}.txt`,
  }))
  const reports = Array.from({ length: reportCount }, (_, i) => ({
    community: i,
    title: `Community ${i}`,
    text: `# Community ${i}\n\nSummary of community ${i}.\n\n## Finding\n\nMore.`,
    documents: [`doc-${i}.txt`],
  }))
  return {
    units,
    unitById: new Map(units.map((u) => [u.id, u])),
    unitByReadableId: new Map(units.map((u) => [String(u.humanReadableId), u])),
    reports,
    reportByCommunity: new Map(reports.map((r) => [String(r.community), r])),
  }
}

describe('offline question generator', () => {
  it('holds out the longest name or number that does not open the sentence', () => {
    expect(clozeSpan('Marta Quill filed the letter in the council records on 14 November.')).toEqual({
      start: 55,
      text: '14 November',
    })
    expect(clozeSpan('The ferry is run by the Aldwick Ferry Cooperative.')).toEqual({
      start: 24,
      text: 'Aldwick Ferry Cooperative',
    })
    expect(clozeSpan('Tobias Harrow said nothing at all that day.')).toBeUndefined()
  })

  it('a cloze question blanks the span; its sentence is the evidence and is found in the unit', () => {
    const unit = corpus(1, 0).units[0]!
    const q = clozeQuestion(unit, seededRng(1))!
    expect(q.type).toBe('local')
    expect(q.question.startsWith('Fill in the blank: ')).toBe(true)
    expect(q.question.replace('____', q.answer)).toBe(`Fill in the blank: ${q.evidence[0]}`)
    // Neither the heading (a paragraph of its own) nor the short sentence is part of it.
    expect(q.evidence[0]).not.toMatch(/^The Harbour Council The/)
    expect(['Aldwick Town Hall', '14 November']).toContain(q.answer)
    expect(supports({ text: unit.text, documents: [] }, q.evidence[0]!)).toBe(true)
  })

  it('a report question asks about its title, answers with its first paragraph, cites its documents', () => {
    expect(reportQuestion(corpus(0, 1).reports[0]!)).toEqual({
      type: 'global',
      question: 'What are the main themes and events involving Community 0?',
      answer: 'Summary of community 0.',
      evidence: ['doc-0.txt'],
      generator: 'report',
    })
  })

  it('draws half local (rounded up) and half global, numbered by type, the same every time', async () => {
    const questions = await generateQuestions(corpus(6, 4), 5)
    expect(questions.map((q) => q.id)).toEqual(['gen-l01', 'gen-l02', 'gen-l03', 'gen-g01', 'gen-g02'])
    expect(await generateQuestions(corpus(6, 4), 5)).toEqual(questions)
    expect(new Set(questions.slice(0, 3).map((q) => q.question)).size).toBe(3)
    // No reports: all local; fewer units than asked: as many as there are.
    expect((await generateQuestions(corpus(2, 0), 5)).map((q) => q.type)).toEqual(['local', 'local'])
  })
})
