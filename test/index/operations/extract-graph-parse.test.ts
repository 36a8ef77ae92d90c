import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseGraphReply } from '../../../src/index/operations/extract-graph/parse.js'
import { PROJECT_ROOT } from '../../support/shared.js'

const reply = (name: string) =>
  readFileSync(join(PROJECT_ROOT, 'fixtures', 'model-output', 'extract-graph', name), 'utf8')
const titles = (text: string) => parseGraphReply(text).entities.map((e) => e.title)
const weights = (text: string) => parseGraphReply(text).relationships.map((r) => [r.source, r.target, r.weight])

describe('parseGraphReply', () => {
  it('keeps every record of a well-formed reply, including the last one glued to <|COMPLETE|>', () => {
    const parsed = parseGraphReply(reply('well-formed.txt'))
    expect(parsed.entities.map((e) => [e.title, e.type])).toEqual([
      ['EBENEZER SCROOGE', 'PERSON'],
      ['JACOB MARLEY', 'PERSON'],
      ['SCROOGE AND MARLEY', 'ORGANIZATION'],
      ['LONDON', 'GEO'],
    ])
    // The reference turns the last weight into 1.0 because `)\n<|COMPLETE|>` stays attached.
    expect(weights(reply('well-formed.txt'))).toEqual([
      ['EBENEZER SCROOGE', 'JACOB MARLEY', 9],
      ['EBENEZER SCROOGE', 'SCROOGE AND MARLEY', 8],
      ['EBENEZER SCROOGE', 'LONDON', 4],
    ])
    expect(parsed.relationships[2]!.description).toBe('Scrooge lives and works in London')
    expect(parsed.dropped).toEqual([])
    expect(parsed.defaultedWeights).toBe(0)
  })

  it('keeps the first record of a gleaning reply that starts with ##', () => {
    const parsed = parseGraphReply(reply('gleaning-leading-delimiter.txt'))
    expect(parsed.entities.map((e) => e.title)).toEqual(['BOB CRATCHIT'])
    expect(weights(reply('gleaning-leading-delimiter.txt'))).toEqual([['EBENEZER SCROOGE', 'BOB CRATCHIT', 7]])
  })

  it('reads replies wrapped in code fences with CRLF line ends', () => {
    const parsed = parseGraphReply(reply('code-fence-crlf.txt'))
    expect(parsed.entities.map((e) => e.title)).toEqual(['FRED', 'EBENEZER SCROOGE'])
    expect(parsed.entities[0]!.description).toBe(
      "Fred is Scrooge's cheerful nephew who invites him to Christmas dinner",
    )
    expect(weights(reply('code-fence-crlf.txt'))).toEqual([['FRED', 'EBENEZER SCROOGE', 8]])
    expect(parsed.dropped).toEqual([])
  })

  it('reads records without parentheses or ## and weights with trailing text', () => {
    const parsed = parseGraphReply(reply('small-model-no-parens.txt'))
    expect(parsed.entities.map((e) => e.title)).toEqual(['THE GHOST OF CHRISTMAS PAST', 'FEZZIWIG'])
    expect(parsed.entities[1]!.description).toBe('Old Fezziwig was the kind master to whom Scrooge was apprenticed')
    expect(weights(reply('small-model-no-parens.txt'))).toEqual([
      ['THE GHOST OF CHRISTMAS PAST', 'EBENEZER SCROOGE', 8],
      ['FEZZIWIG', 'EBENEZER SCROOGE', 6],
    ])
    expect(parsed.relationships[0]!.description).toBe('The spirit shows Scrooge scenes of his own past')
    expect(parsed.dropped).toEqual([])
  })

  it('removes stray quotes and markdown emphasis, upper-cases names and types, reads quoted and decimal weights', () => {
    const parsed = parseGraphReply(reply('small-model-quoted.txt'))
    expect(parsed.entities.map((e) => [e.title, e.type])).toEqual([
      ['BELLE', 'PERSON'],
      ['EBENEZER SCROOGE', 'PERSON'],
    ])
    expect(parsed.entities[0]!.description).toBe(
      'Belle is a young woman who was once engaged to Scrooge and released him because he loved money more',
    )
    expect(weights(reply('small-model-quoted.txt'))).toEqual([
      ['BELLE', 'EBENEZER SCROOGE', 7],
      ['BELLE', 'EBENEZER SCROOGE', 5.5],
    ])
    expect(parsed.relationships[0]!.description).toBe('Belle breaks off her engagement to Scrooge')
  })

  it('joins records split over lines and ignores chatter after the last record', () => {
    const parsed = parseGraphReply(reply('split-over-lines.txt'))
    expect(parsed.entities).toEqual([
      {
        title: 'TINY TIM',
        type: 'PERSON',
        description:
          "Tiny Tim is Bob Cratchit's youngest son, who is frail and walks with a crutch and whose fate moves Scrooge",
      },
      {
        title: 'THE CRATCHIT FAMILY',
        type: 'ORGANIZATION',
        description: 'The poor but loving family of Bob Cratchit (including Tiny Tim)',
      },
    ])
    expect(weights(reply('split-over-lines.txt'))).toEqual([
      ['TINY TIM', 'THE CRATCHIT FAMILY', 9],
      ['EBENEZER SCROOGE', 'TINY TIM', 8],
    ])
    expect(parsed.relationships[1]!.description).toBe('Scrooge becomes a second father to Tiny Tim')
    expect(parsed.dropped).toEqual([])
  })

  it('drops and reports malformed records, keeps a relationship without strength at weight 1', () => {
    const parsed = parseGraphReply(reply('malformed-records.txt'))
    expect(parsed.entities.map((e) => e.title)).toEqual(['THE GHOST OF CHRISTMAS PRESENT'])
    expect(parsed.dropped.map((d) => d.reason)).toEqual([
      'entity without a type',
      'relationship without a target',
      'entity without a name',
      'not an entity or relationship record',
    ])
    expect(parsed.relationships).toEqual([
      {
        source: 'THE GHOST OF CHRISTMAS PRESENT',
        target: 'EBENEZER SCROOGE',
        description: 'The spirit takes Scrooge through the city on Christmas Day',
        weight: 1,
      },
    ])
    expect(parsed.defaultedWeights).toBe(1)
  })

  it('cleans fields like the reference: HTML entities unescaped, control characters deleted', () => {
    const parsed = parseGraphReply(reply('html-and-control-chars.txt'))
    expect(parsed.entities).toEqual([
      {
        title: 'CAMDEN TOWN & HOLBORN',
        type: 'GEO',
        description: "Districts of London where Scrooge's nephew walks on Christmas",
      },
      {
        title: 'EBENEZER SCROOGE',
        type: 'PERSON',
        description: 'Scrooge "the squeezing, wrenching, grasping" old sinner',
      },
    ])
    expect(weights(reply('html-and-control-chars.txt'))).toEqual([['EBENEZER SCROOGE', 'CAMDEN TOWN & HOLBORN', 3]])
  })

  it('returns nothing, and drops nothing, for an empty reply or a bare completion marker', () => {
    for (const text of ['', '<|COMPLETE|>', '##\n<|COMPLETE|>', 'I could not find any entities.']) {
      expect(parseGraphReply(text)).toEqual({ entities: [], relationships: [], dropped: [], defaultedWeights: 0 })
    }
  })

  it('keeps a description that contains a stray delimiter', () => {
    const parsed = parseGraphReply('("entity"<|>FRED<|>PERSON<|>Scrooge\'s nephew<|>a cheerful man)\n<|COMPLETE|>')
    expect(parsed.entities[0]!.description).toBe("Scrooge's nephew a cheerful man")
    expect(titles('("entity"<|>"A" AND "B"<|>ORGANIZATION<|>x)')).toEqual(['"A" AND "B"'])
  })
})

describe('parseGraphReply record boundaries', () => {
  it('does not take a description ending in "relationship" for a new record', () => {
    const text =
      '("relationship"<|>SCROOGE<|>PLUMP SISTER<|>They share a social and familial relationship<|>5)\n<|COMPLETE|>'
    expect(parseGraphReply(text)).toEqual({
      entities: [],
      relationships: [
        {
          source: 'SCROOGE',
          target: 'PLUMP SISTER',
          description: 'They share a social and familial relationship',
          weight: 5,
        },
      ],
      dropped: [],
      defaultedWeights: 0,
    })
  })

  it('reads numbered or bulleted records and records glued together without ##', () => {
    const text =
      '1. ("entity"<|>A<|>PERSON<|>first)\n- ("entity"<|>B<|>PERSON<|>second)("relationship"<|>A<|>B<|>linked<|>4)'
    expect(titles(text)).toEqual(['A', 'B'])
    expect(weights(text)).toEqual([['A', 'B', 4]])
  })
})

describe('parseGraphReply trailing delimiters', () => {
  it('ignores an empty field after a trailing delimiter', () => {
    const text = '("entity"<|>A<|>PERSON<|>first<|>)\n##\n("relationship"<|>A<|>A<|>self<|>6<|> )\n<|COMPLETE|>'
    const parsed = parseGraphReply(text)
    expect(parsed.entities).toEqual([{ title: 'A', type: 'PERSON', description: 'first' }])
    expect(parsed.relationships).toEqual([{ source: 'A', target: 'A', description: 'self', weight: 6 }])
    expect(parsed.defaultedWeights).toBe(0)
  })
})

describe('parseGraphReply parentheses inside descriptions', () => {
  it('keeps a description whose parenthesis closes at a line end of a record split over lines', () => {
    const text =
      '("entity"<|>SCROOGE<|>PERSON<|>A miser (old)   \nwho hates Christmas)\n##\n[("entity"<|>FRED<|>PERSON<|>nephew), ("entity"<|>BELLE<|>PERSON<|>former fiancée)]'
    expect(parseGraphReply(text).entities).toEqual([
      { title: 'SCROOGE', type: 'PERSON', description: 'A miser (old) who hates Christmas' },
      { title: 'FRED', type: 'PERSON', description: 'nephew' },
      { title: 'BELLE', type: 'PERSON', description: 'former fiancée' },
    ])
  })
})

describe('parseGraphReply preamble, completion markers and chatter', () => {
  it('reads a record that starts on the same line as the preamble, without inventing records from parentheses in descriptions', () => {
    const parsed = parseGraphReply(reply('preamble-same-line.txt'))
    expect(parsed.entities).toEqual([
      {
        title: 'MRS. FEZZIWIG',
        type: 'PERSON',
        description:
          'Mrs. Fezziwig, "one vast substantial smile" (entity of good cheer), dances with her husband at the ball',
      },
      {
        title: 'DICK WILKINS',
        type: 'PERSON',
        description:
          "Dick Wilkins was apprenticed with young Scrooge (relationship status: fellow apprentice) at Fezziwig's",
      },
    ])
    expect(weights(reply('preamble-same-line.txt'))).toEqual([['MRS. FEZZIWIG', 'DICK WILKINS', 4]])
    expect(parsed.dropped).toEqual([])
    expect(titles('Entities: "entity"<|>A<|>PERSON<|>first\n"entity"<|>B<|>PERSON<|>second')).toEqual(['A', 'B'])
  })

  it('ends the last record at a bare COMPLETE line that follows it directly', () => {
    const parsed = parseGraphReply(reply('small-model-bare-complete.txt'))
    expect(parsed.entities.map((e) => e.description)).toEqual([
      'The ghost of Jacob Marley, bound in a chain of cash-boxes and padlocks',
      "Wandering spirits outside Scrooge's window, each chained like Marley",
    ])
    expect(parsed.relationships.map((r) => [r.description, r.weight])).toEqual([
      ["Marley's ghost warns Scrooge that three spirits will visit him", 9],
      ["Marley's ghost joins the phantoms in their mournful dirge", 6],
    ])
    expect(parsed.dropped).toEqual([])
  })

  it('treats a line holding only a completion marker, in any common spelling, as the end of the record', () => {
    for (const marker of [
      'COMPLETE',
      '<|COMPLETE|>',
      '[COMPLETE]',
      '**COMPLETE**',
      '<COMPLETE>',
      '`<|COMPLETE|>`',
      '`COMPLETE`',
      '  COMPLETE.  ',
    ]) {
      const parsed = parseGraphReply(
        `"entity"<|>A<|>PERSON<|>desc a\n"entity"<|>B<|>PERSON<|>desc b\n${marker}\nthanks for reading`,
      )
      expect(
        parsed.entities.map((e) => e.description),
        marker,
      ).toEqual(['desc a', 'desc b'])
    }
    // Only a whole line is a marker: the word inside a description stays text.
    expect(parseGraphReply('"entity"<|>A<|>EVENT<|>The ball is COMPLETE at midnight').entities[0]!.description).toBe(
      'The ball is COMPLETE at midnight',
    )
  })

  it('keeps chatter after an unparenthesised record out of its last field, but joins a wrapped lower-case line', () => {
    const parsed = parseGraphReply(reply('small-model-chatter.txt'))
    expect(parsed.entities).toEqual([
      {
        title: "MARLEY'S GHOST",
        type: 'PERSON',
        description:
          'The ghost of Jacob Marley, bound in a chain of cash-boxes, padlocks and heavy purses wrought in steel',
      },
      {
        title: 'THE PHANTOMS',
        type: 'PERSON',
        description: "Wandering spirits outside Scrooge's window, each chained like Marley",
      },
    ])
    expect(weights(reply('small-model-chatter.txt'))).toEqual([["MARLEY'S GHOST", 'EBENEZER SCROOGE', 9]])
    expect(parsed.dropped).toEqual([])
  })
})

describe('parseGraphReply strengths', () => {
  it('reads the strength only at the start of the last field and defaults a missing one to 1, keeping its text', () => {
    const parsed = parseGraphReply(reply('numbers-in-fields.txt'))
    expect(parsed.entities.map((e) => e.description)).toEqual(["London in 1843, where Scrooge's counting-house stands"])
    expect(parsed.relationships.map((r) => [r.target, r.description, r.weight])).toEqual([
      ['BOB CRATCHIT', 'Scrooge pays Bob 15 shillings a week', 8],
      ['THE CITY', 'Scrooge has kept his counting-house in the city since 1820', 6],
      ['JACOB MARLEY', 'Scrooge and Marley met in 1843 at the office on floor 3', 1],
      ['THE CITY', 'Bob runs home through Camden Town, 20 streets away', 7],
    ])
    expect(parsed.defaultedWeights).toBe(1)
    expect(parsed.dropped).toEqual([])
  })

  it('does not read a number that is part of a word as the strength', () => {
    const parsed = parseGraphReply('("relationship"<|>A<|>B<|>neighbours<|>3rd floor)')
    expect(parsed.relationships).toEqual([{ source: 'A', target: 'B', description: 'neighbours 3rd floor', weight: 1 }])
    expect(parsed.defaultedWeights).toBe(1)
  })
})
