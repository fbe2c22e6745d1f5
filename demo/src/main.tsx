import { lazy, StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'

const container = document.getElementById('root')
if (container === null) throw new Error('[threadlens] demo: index.html needs a #root element')

// `/` is the chat app. `?view=lab` is the projection lab over the sample thread with the floating
// devtools (`?entries=N`, used by the devtools bench, opens it on a generated thread). Each view is
// its own chunk, so neither downloads the other.
const params = new URLSearchParams(globalThis.location.search)
const lab = params.get('view') === 'lab' || params.has('entries')
// `?view=ai-sdk` is a Vercel AI SDK `useChat` app adopted onto threadlens (@threadlens/ai-sdk).
const aiSdk = params.get('view') === 'ai-sdk'
const View = lazy(() =>
  aiSdk
    ? import('./ai-sdk/ai-sdk-route').then((module) => ({ default: module.AiSdkRoute }))
    : lab
      ? import('./chat/lab-route').then((module) => ({ default: module.LabRoute }))
      : import('./chat/chat-app').then((module) => ({ default: module.ChatApp })),
)

createRoot(container).render(
  <StrictMode>
    <Suspense fallback={null}>
      <View />
    </Suspense>
  </StrictMode>,
)
