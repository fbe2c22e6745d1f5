import { colours, dashes } from './context-chart-colours'

const legend: readonly { readonly figure: keyof typeof dashes; readonly words: string }[] = [
  { figure: 'sent', words: 'prompt tokens sent (counted here)' },
  { figure: 'reported', words: 'prompt tokens the provider counted' },
  { figure: 'cached', words: 'read from the provider’s cache' },
  { figure: 'budget', words: 'input budget of the policy' },
]

/** What each line and mark of the chart stands for, drawn the way the chart draws it. */
export function ChartLegend() {
  return (
    <ul
      className="tl-row tl-muted"
      style={{ listStyle: 'none', margin: '4px 0 0', padding: 0, gap: '2px 14px', fontSize: 11 }}
      data-testid="context-chart-legend"
    >
      {legend.map((item) => (
        <li key={item.figure} style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <svg width="22" height="8" aria-hidden="true" focusable="false">
            <line x1="1" y1="4" x2="21" y2="4" stroke={colours[item.figure]} strokeWidth="2" strokeDasharray={dashes[item.figure]} />
          </svg>
          {item.words}
        </li>
      ))}
      <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
        <svg width="10" height="8" aria-hidden="true" focusable="false">
          <path d="M1 1H9L5 7Z" fill={colours.summary} />
        </svg>
        summary written
      </li>
      <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
        <svg width="10" height="10" aria-hidden="true" focusable="false">
          <path d="M5 1L9 5L5 9L1 5Z" fill={colours.recall} />
        </svg>
        recall brought entries back
      </li>
      <li style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
        <svg width="10" height="10" aria-hidden="true" focusable="false">
          <path d="M2 2L8 8M8 2L2 8" stroke={colours.unanswered} strokeWidth="2" />
        </svg>
        not answered
      </li>
    </ul>
  )
}
