import { describe, expect, it } from 'vitest';

import { pinnedDays } from './pinned-days.js';

const TODAY = '2024-01-21';

describe('pinnedDays', () => {
  it.each([
    ['Where was Elise on 31 Dec 2023?', '2023-12-31', '2023-12-31'],
    ['What happened to Elise in the library on 5 January 2024?', '2024-01-05', '2024-01-05'],
    ['What did Elise play 5 Jan 2024?', '2024-01-05', '2024-01-05'],
    ['Where is Paola going on the 10th of February 2024?', '2024-02-10', '2024-02-10'],
    ['What painting did Melanie show on October 13, 2023?', '2023-10-13', '2023-10-13'],
    ['What did Nate find on 1 February, 2023?', '2023-02-01', '2023-02-01'],
    ['What did Joanna watch on Sept. 9th, 2022?', '2022-09-09', '2022-09-09'],
    // A dotted date with the year last is day first; a slashed one month first unless it cannot be.
    ['What did Kevin watch on the night of 10.01.2024?', '2024-01-10', '2024-01-10'],
    ['Exercises for what muscles did Kevin do on 14.01.2024?', '2024-01-14', '2024-01-14'],
    ['What was due on 5.1.2024?', '2024-01-05', '2024-01-05'],
    ['What was due on 10/01/2024?', '2024-10-01', '2024-10-01'],
    ['What was due on 21/01/2024?', '2024-01-21', '2024-01-21'],
    ['What shipped on 2024-01-10?', '2024-01-10', '2024-01-10'],
    // Without a year: the latest such day up to today.
    ['What did we cook on January 5th?', '2024-01-05', '2024-01-05'],
    ['What did we cook on the 5th of March?', '2023-03-05', '2023-03-05'],
    ['What happened on Feb 29?', '2020-02-29', '2020-02-29'],
    // Weeks: the first seven days of the month (of January for a year alone), the last seven.
    ['Which place did Elise visit in the first week of 2024?', '2024-01-01', '2024-01-07'],
    ['What did Nate do in the second week of March 2023?', '2023-03-08', '2023-03-14'],
    ['What did Nate do in the last week of February 2024?', '2024-02-23', '2024-02-29'],
    ['What did Nate do in the first week of December?', '2023-12-01', '2023-12-07'],
    ['What did Nate do in the fourth week of March 2023?', '2023-03-22', '2023-03-28'],
    ['What did Nate do in the third week of March 2023?', '2023-03-15', '2023-03-21'],
    ['What did Nate do in the 4th week of March 2023?', '2023-03-22', '2023-03-28'],
    ['What was due on may 20th?', '2023-05-20', '2023-05-20'],
    ['What was due on May 20?', '2023-05-20', '2023-05-20'],
    // Several days: from the first to the last.
    ['What did Paola do between 10.01.2024 and 14.01.2024?', '2024-01-10', '2024-01-14'],
    ['What did Paola make on Friday before 10.01.2024?', '2024-01-10', '2024-01-10'],
  ])('pins %j to %s–%s', (question, start, end) => {
    expect(pinnedDays(question, TODAY)).toEqual({ start, end });
  });

  it.each([
    'What are Kate\u2019s hobbies?',
    'Where does Kate plan to visit in the spring of 2024?',
    'What football match did Kevin watch in 2017?',
    'What setback did Melanie face in October 2023?',
    'What did Joanna write yesterday?',
    'What did Elise do last week?',
    'How many of the 12 cats may stay?',
    'What happened in the first week of the trip?',
    'What happened in the first week of marriage?', // a month's letters starting a word are no month
    'What did Joanna feel in the first week of junior year?',
    'Who helped in the last week of decorating?',
    'How many people may 20 of them invite?', // the verb, not the month
    'Version 1.2 shipped on 31.02.2024?', // no such day
    'What happened between 1 January 2024 and 5 March 2024?', // more than a month: no pin
    'Who wrote 1984?',
  ])('pins no day in %j', (question) => {
    expect(pinnedDays(question, TODAY)).toBeNull();
  });
});
