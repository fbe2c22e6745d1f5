import { Component, useState, type ErrorInfo, type ReactNode } from 'react'

/** What a fallback gets when the part it stands in for failed to render. */
export interface ThreadlensErrorFallbackProps {
  readonly error: unknown
  /** The error's name, message and stack, and the components it was thrown in: plain text for a bug report. */
  readonly details: string
  /** What failed, as the boundary was told (`"the Calls tab"`); `undefined` when it was not. */
  readonly label: string | undefined
  /** Renders the children again. */
  retry(): void
  readonly className?: string
}

export interface ThreadlensErrorBoundaryProps {
  readonly children?: ReactNode
  /** What the children show, named in the message (`"the Calls tab"`). Default: none ("This part of the page"). */
  readonly label?: string
  /** Renders a failure your way. Default: `<ThreadlensErrorFallback>`. */
  readonly fallback?: (props: ThreadlensErrorFallbackProps) => ReactNode
  /** Called once per failure, with the details the fallback offers to copy (log or report it). */
  readonly onError?: (error: unknown, details: string) => void
  /** Called when the fallback's retry is pressed, before the children render again. */
  readonly onRetry?: () => void
  /** When one of these changes (`Object.is`), a failed boundary renders its children again. */
  readonly resetKeys?: readonly unknown[]
  /** Class of the default fallback's element. Default `threadlens-error`. */
  readonly className?: string
}

interface State {
  readonly failure: { readonly error: unknown; readonly details: string } | undefined
  readonly keys: readonly unknown[] | undefined
}

/** The error as readable text: name and message, then its stack and the component stack. */
export function errorDetails(error: unknown, componentStack?: string | null): string {
  const head = error instanceof Error ? `${error.name}: ${error.message}` : `Thrown: ${safeString(error)}`
  const stack = error instanceof Error && error.stack !== undefined ? error.stack : ''
  const lines = [head]
  // Most engines start the stack with the message: not twice.
  if (stack !== '') lines.push(stack.startsWith(head) ? stack.slice(head.length).replace(/^\n/, '') : stack)
  if (componentStack != null && componentStack.trim() !== '') lines.push(`Components:${componentStack}`)
  return lines.filter((line) => line !== '').join('\n')
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  } catch {
    return Object.prototype.toString.call(value)
  }
}

function keysChanged(previous: readonly unknown[] | undefined, next: readonly unknown[] | undefined): boolean {
  if (previous === next) return false
  if (previous === undefined || next === undefined || previous.length !== next.length) return true
  return previous.some((key, position) => !Object.is(key, next[position]))
}

/**
 * Catches an error thrown while its children render, so it takes down only them: in their place
 * the fallback says what failed, offers the details to copy and a retry. The rest of the app keeps
 * running. Like every React error boundary it does not see errors of event handlers or promises.
 */
export class ThreadlensErrorBoundary extends Component<ThreadlensErrorBoundaryProps, State> {
  override state: State = { failure: undefined, keys: this.props.resetKeys }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failure: { error, details: errorDetails(error) } }
  }

  static getDerivedStateFromProps(props: ThreadlensErrorBoundaryProps, state: State): Partial<State> | null {
    if (!keysChanged(state.keys, props.resetKeys)) return null
    return { keys: props.resetKeys, failure: undefined }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const details = errorDetails(error, info.componentStack)
    this.setState({ failure: { error, details } })
    this.props.onError?.(error, details)
  }

  private readonly retry = (): void => {
    this.props.onRetry?.()
    this.setState({ failure: undefined })
  }

  override render(): ReactNode {
    const failure = this.state.failure
    if (failure === undefined) return this.props.children
    const props: ThreadlensErrorFallbackProps = {
      error: failure.error,
      details: failure.details,
      label: this.props.label,
      retry: this.retry,
      ...(this.props.className === undefined ? {} : { className: this.props.className }),
    }
    return this.props.fallback === undefined ? <ThreadlensErrorFallback {...props} /> : this.props.fallback(props)
  }
}

/** Longest error message shown in the fallback's first line; the rest is in the details. */
const MESSAGE_CHARS = 300

/**
 * The default fallback: what failed and the error's message as text (never as HTML), a "copy
 * details" button (where the clipboard is refused, the details open to be selected by hand) and
 * "try again".
 */
export function ThreadlensErrorFallback({ error, details, label, retry, className = 'threadlens-error' }: ThreadlensErrorFallbackProps) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle')
  const raw = error instanceof Error ? error.message : safeString(error)
  const message = raw.length > MESSAGE_CHARS ? `${raw.slice(0, MESSAGE_CHARS)}…` : raw
  const onCopy = () => {
    const clipboard = globalThis.navigator?.clipboard
    if (clipboard === undefined) {
      setCopy('failed')
      return
    }
    clipboard.writeText(details).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    )
  }
  return (
    <div role="alert" className={className} data-testid="threadlens-error">
      <p data-testid="threadlens-error-message">
        {label === undefined ? 'This part of the page' : capitalized(label)} could not be shown:{' '}
        {message === '' ? 'an error without a message' : message}
      </p>
      <p>
        <button type="button" onClick={onCopy} data-testid="threadlens-error-copy" data-state={copy}>
          {copy === 'copied' ? 'details copied' : copy === 'failed' ? 'copy failed: select the details below' : 'copy details'}
        </button>{' '}
        <button type="button" onClick={retry} data-testid="threadlens-error-retry">
          try again
        </button>
      </p>
      <details open={copy === 'failed'}>
        <summary>details</summary>
        <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 240, overflow: 'auto' }}>{details}</pre>
      </details>
    </div>
  )
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
