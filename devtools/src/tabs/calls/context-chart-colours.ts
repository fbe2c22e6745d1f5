/** Line colours on the panel's background (#161a20): each at 3:1 or more, and each line drawn its own way too. */
export const colours = {
  sent: '#5b9dff',
  reported: '#3fb37f',
  cached: '#e0a030',
  budget: '#dfe4ea',
  summary: '#c39bff',
  recall: '#4fd1c5',
  unanswered: '#ff938c',
  text: '#a3adba',
  grid: '#2c333d',
} as const
export const dashes = { sent: undefined, reported: '6 3', cached: '2 3', budget: '10 4' } as const
