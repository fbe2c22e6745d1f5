import { LabDevtools } from './devtools/lab-devtools'
import { LabApp } from './lab-app'
import './styles.css'
import './lab-route.css'

/** The projection lab (`?view=lab`): the sample thread under switchable policies, with the floating devtools. */
export function LabRoute() {
  return (
    <div className="lab-page">
      <nav className="lab-nav" aria-label="Demo views">
        <a href="./">← Back to the chat</a>
      </nav>
      <LabApp />
      <LabDevtools />
    </div>
  )
}
