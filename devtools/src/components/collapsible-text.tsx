import { useState } from 'react'
import { COLLAPSE_AFTER_CHARS } from '../constants'

export interface CollapsibleTextProps {
  readonly text: string
  /** Characters shown before "show more". Default `COLLAPSE_AFTER_CHARS` (600). */
  readonly limit?: number
  /** Render in a `<pre>` (JSON, code). Default false. */
  readonly pre?: boolean
  readonly className?: string
}

/** Text as text (never HTML), long text collapsed behind "show more". */
export function CollapsibleText({ text, limit = COLLAPSE_AFTER_CHARS, pre = false, className }: CollapsibleTextProps) {
  const [expanded, setExpanded] = useState(false)
  const long = text.length > limit
  const shown = long && !expanded ? `${text.slice(0, limit)}…` : text
  const Tag = pre ? 'pre' : 'div'
  return (
    <Tag className={`${pre ? 'tl-pre' : 'tl-text'} ${className ?? ''}`}>
      {shown}
      {long ? (
        <button type="button" className="tl-more" onClick={() => setExpanded(!expanded)}>
          {expanded ? 'show less' : `show more (${text.length - limit} more characters)`}
        </button>
      ) : null}
    </Tag>
  )
}
