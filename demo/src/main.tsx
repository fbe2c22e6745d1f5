import { lazy, StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'

const container = document.getElementById('root')
if (container === null) throw new Error('[threadlens] demo: index.html needs a #root element')

// `/` is the chat app (src/chat/). `?view=lab` is the projection lab over the sample thread with the
// floating devtools (src/lab/; `?entries=N`, used by the devtools bench, opens it on a generated
// thread). Each view is its own chunk, so neither downloads the other; the two folders share no code.
const params = new URLSearchParams(globalThis.location.search)
const lab = params.get('view') === 'lab' || params.has('entries')
// `?view=ai-sdk` is a Vercel AI SDK `useChat` app adopted onto threadlens (@threadlens/ai-sdk).
const aiSdk = params.get('view') === 'ai-sdk'
// One `lazy` per view, each with its own `import()`: the bundler attaches a chunk's CSS to the
// import call that loads it, and one call choosing between three imports loaded only the chat's CSS
// (the lab and the AI SDK view came up unstyled).
const AiSdkRoute = lazy(() => import('./ai-sdk/ai-sdk-route').then((module) => ({ default: module.AiSdkRoute })))
const LabRoute = lazy(() => import('./lab/lab-route').then((module) => ({ default: module.LabRoute })))
const ChatApp = lazy(() => import('./chat/chat-app').then((module) => ({ default: module.ChatApp })))
const View = aiSdk ? AiSdkRoute : lab ? LabRoute : ChatApp

createRoot(container).render(
  <StrictMode>
    <Suspense fallback={null}>
      <View />
    </Suspense>
  </StrictMode>,
)
