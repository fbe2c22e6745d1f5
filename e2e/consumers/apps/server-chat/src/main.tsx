// The README's adopted server chat (@threadlens/ai-sdk's examples/adopted-server-chat.tsx, copied in
// by the consumer test), as an app renders it.
import { createRoot } from 'react-dom/client'
import { Chat } from './adopted-server-chat'

createRoot(document.getElementById('root') as HTMLElement).render(<Chat />)
