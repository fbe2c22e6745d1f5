import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { DemoDevtools } from './devtools/demo-devtools'
import './styles.css'

const container = document.getElementById('root')
if (container === null) throw new Error('[threadlens] demo: index.html needs a #root element')

createRoot(container).render(
  <StrictMode>
    <App />
    <DemoDevtools />
  </StrictMode>,
)
