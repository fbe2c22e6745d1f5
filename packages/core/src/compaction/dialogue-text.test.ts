import { describe, expect, it } from 'vitest'
import { annotateRelativeDate, formatDate, midSentenceNames, parseDate, sentenceScore, withoutInterjection } from './dialogue-text'

const speakers = new Set(['Caroline', 'Melanie'])

describe('dialogue text', () => {
  it('reads dates in the usual spellings', () => {
    for (const text of ['7:55 pm on 9 June, 2023', 'June 9th, 2023', 'on 2023-06-09']) expect(formatDate(parseDate(text) as Date)).toBe('9 June 2023')
    expect(parseDate('no date here')).toBeUndefined()
  })

  it('resolves exact relative dates against the day they were said', () => {
    const said = parseDate('8 May 2023') as Date // a Monday
    expect(annotateRelativeDate('I went there yesterday.', said)).toBe('I went there yesterday (7 May 2023).')
    expect(annotateRelativeDate('Last Saturday I ran.', said)).toBe('Last Saturday (6 May 2023) I ran.')
    expect(annotateRelativeDate('We fly next Monday.', said)).toBe('We fly next Monday (15 May 2023).')
    expect(annotateRelativeDate('I start next month.', said)).toBe('I start next month (June 2023).')
    expect(annotateRelativeDate('I went last year.', said)).toBe('I went last year (2022).')
    expect(annotateRelativeDate('I went last week.', said)).toBe('I went last week.')
    expect(annotateRelativeDate('I went yesterday.', undefined)).toBe('I went yesterday.')
  })

  it('finds names mid-sentence only, without common words, days or months', () => {
    expect(midSentenceNames("Wow, that's cool!")).toEqual([])
    expect(midSentenceNames("Yeah, I'm going to Lisbon with Amy Ellis Nutt on Friday in June.")).toEqual(['Lisbon', 'Amy Ellis Nutt'])
    expect(midSentenceNames('Sweden is where I grew up.')).toEqual([])
  })

  it('scores facts above small talk, and content-free questions at 0', () => {
    for (const chatter of ['Hey Mel!', "Wow, that's cool!", 'Thanks!', 'How have you been?', 'That sounds so nice, I love that for you.']) {
      expect(sentenceScore(chatter, speakers)).toBe(0)
    }
    const fact = sentenceScore('I went to a LGBTQ support group yesterday.', speakers)
    expect(fact).toBeGreaterThan(5)
    expect(sentenceScore('Did you go to the LGBTQ support group yesterday?', speakers)).toBeLessThan(fact)
  })

  it('drops the interjection a sentence opens with', () => {
    expect(withoutInterjection('Yeah, I painted that lake sunrise.')).toBe('I painted that lake sunrise.')
    expect(withoutInterjection('Oh wow, we finally moved to Paris.')).toBe('We finally moved to Paris.')
    expect(withoutInterjection('Well done.')).toBe('Well done.')
  })
})
