import type { ProjectionSnapshot } from '@threadlens/react'

/** What a tab shows while its projection is not ready. */
export function ProjectionStatus({ snapshot }: { readonly snapshot: ProjectionSnapshot }) {
  if (snapshot.status === 'error') {
    const message = snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error)
    return (
      <p className="tl-error" role="alert" data-testid="projection-error">
        Projection failed: {message}
      </p>
    )
  }
  return (
    <p className="tl-muted" data-testid="projection-loading">
      {snapshot.thread === undefined ? 'loading the thread…' : 'loading the token counter…'}
    </p>
  )
}
