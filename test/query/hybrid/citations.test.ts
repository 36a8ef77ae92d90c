import { describe, expect, it } from 'vitest'
import { checkCitations, citedLabels, sentences } from '../../../src/query/hybrid/citations.js'

const SOURCES = [
  { label: 'S1', id: 'u1' },
  { label: 'S2', id: 'u2' },
  { label: 'S3', id: 'r7' },
]

describe('citations', () => {
  it('reads single, listed and ranged labels', () => {
    expect(citedLabels('A [S1]. B [S2, S3]. C [S1; S2]. D [S2-S3] and [S4–S5].')).toEqual([
      'S1',
      'S2',
      'S3',
      'S1',
      'S2',
      'S2',
      'S3',
      'S4',
      'S5',
    ])
  })

  it('maps cited labels to sources in order of first citation, without warnings when everything is cited', () => {
    expect(checkCitations('The ferry sank [S2]. It was rebuilt [S1][S3]. Again [S2].', SOURCES)).toEqual({
      references: [
        { label: 'S2', id: 'u2' },
        { label: 'S1', id: 'u1' },
        { label: 'S3', id: 'r7' },
      ],
      warnings: [],
    })
  })

  it('unused_sources: one warning per source never cited', () => {
    expect(checkCitations('Only this [S1].', SOURCES).warnings).toEqual([
      { type: 'unused_sources', detail: 'S2 (u2) was given but never cited' },
      { type: 'unused_sources', detail: 'S3 (r7) was given but never cited' },
    ])
  })

  it('unknown_citation: a label no source has', () => {
    const report = checkCitations('Yes [S1, S2, S3]. And [S9].', SOURCES)
    expect(report.references.map((r) => r.label)).toEqual(['S1', 'S2', 'S3'])
    expect(report.warnings).toEqual([
      { type: 'unknown_citation', detail: '[S9] is cited but no source has that label (given: S1–S3)' },
    ])
  })

  it('unreferenced_numeric: a sentence with a number or year and no citation; list markers and trailing citations are not figures', () => {
    const answer = [
      'The ferry was built in 1911 [S1].',
      'It carried 42 passengers.',
      'It sank in 1998. [S2]',
      '1. The lamp failed.',
      'The cost was 3.5 million, said the report [S3].',
      'Nobody knows why in 2024!',
    ].join('\n')
    expect(checkCitations(answer, SOURCES).warnings).toEqual([
      { type: 'unreferenced_numeric', detail: 'It carried 42 passengers.' },
      { type: 'unreferenced_numeric', detail: 'Nobody knows why in 2024!' },
    ])
  })

  it('splits sentences at line breaks and keeps a citation-only piece with the sentence before it', () => {
    expect(sentences('One in 1843.\n[S1]\n- Two [S2]. Three.')).toEqual(['One in 1843. [S1]', 'Two [S2].', 'Three.'])
  })
})
