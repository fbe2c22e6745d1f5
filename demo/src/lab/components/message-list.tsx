import type { MessageInfo, ProjectedMessage, ProjectionResult } from '@threadlens/core'

function seqLabel(info: MessageInfo | undefined): string {
  if (info === undefined || info.seqs.length === 0) return ''
  const first = info.seqs[0] as number
  const last = info.seqs[info.seqs.length - 1] as number
  return first === last ? `#${first}` : `#${first}–#${last}`
}

/** Content is always a text node: projected text may hold markup from users, pages or tools. */
function MessageBody({ message }: { message: ProjectedMessage }) {
  return (
    <>
      {message.content === '' ? null : <div className="message-content">{message.content}</div>}
      {message.role === 'assistant' && message.toolCalls !== undefined
        ? message.toolCalls.map((call) => (
            <div key={call.id} className="tool-call">
              <span className="tool-name">{call.name}</span>
              <code>{JSON.stringify(call.arguments)}</code>
              <span className="muted"> · {call.id}</span>
            </div>
          ))
        : null}
    </>
  )
}

export function MessageList({ result }: { result: ProjectionResult }) {
  const pinned = new Set(result.meta.pinnedSeqs)
  return (
    <section className="panel" aria-labelledby="messages-heading">
      <h2 id="messages-heading">
        Projected messages <span className="muted">({result.messages.length})</span>
      </h2>
      <ol className="message-list" data-testid="message-list" aria-label="Projected messages" tabIndex={0}>
        {result.messages.map((message, index) => {
          const info = result.meta.messages[index]
          const isError = message.role === 'tool' && message.isError === true
          return (
            <li
              key={index}
              className={`message role-${message.role}${isError ? ' is-error' : ''}`}
              data-testid="projected-message"
              data-role={message.role}
              data-segment={info?.segment}
            >
              <div className="message-head">
                <span className="role">{message.role === 'tool' ? `tool · ${message.name}` : message.role}</span>
                <span className={`segment segment-${info?.segment ?? 'history'}`}>{info?.segment}</span>
                {info?.seqs.some((seq) => pinned.has(seq)) === true ? <span className="badge">pinned</span> : null}
                {isError ? <span className="badge badge-danger">error</span> : null}
                {info?.synthetic === undefined ? null : <span className="badge badge-warn">{info.synthetic}</span>}
                <span className="muted">{seqLabel(info)}</span>
                <span className="tokens">{info?.tokens ?? 0} tok</span>
              </div>
              <MessageBody message={message} />
            </li>
          )
        })}
      </ol>
    </section>
  )
}
