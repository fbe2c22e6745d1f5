import { toggleDevtools, useDevtoolsOpen } from '@threadlens/devtools/production'
import { useCallback, useState } from 'react'
import type { ChatLayout } from './active-chat'
import { DEVTOOLS_STORAGE_KEY } from './chat-config'

/** Which of the chat list (narrow screens), the devtools and the model settings are open, and the ways to open and close them. */
export function useChatLayout() {
  const [sidebarOpen, setSidebarOpen] = useState(false)
  // The devtools keep their own open state (remembered per origin, with dock, size, tab and filters).
  const devtoolsOpen = useDevtoolsOpen(DEVTOOLS_STORAGE_KEY)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const closeSidebar = useCallback(() => setSidebarOpen(false), [])
  const closeSettings = useCallback(() => setSettingsOpen(false), [])
  const layout: ChatLayout = {
    sidebarOpen,
    devtoolsOpen,
    settingsOpen,
    toggleSidebar: () => setSidebarOpen((value) => !value),
    toggleDevtools: () => toggleDevtools(DEVTOOLS_STORAGE_KEY),
    toggleSettings: () => setSettingsOpen((value) => !value),
  }
  return [layout, closeSidebar, closeSettings] as const
}
