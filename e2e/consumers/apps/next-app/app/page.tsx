// A server component: it imports @threadlens/devtools on the server (a client reference, thanks to
// the package's 'use client' directive) and renders the client-only chat around it.
import { ThreadlensDevtools } from '@threadlens/devtools/production'
import { Chat } from './chat'

export default function Page() {
  return (
    <main>
      <h1>threadlens on Next.js</h1>
      <Chat>
        <ThreadlensDevtools threadId="next-thread" initialIsOpen />
      </Chat>
    </main>
  )
}
