import { describeFixtureFiles } from '@threadlens/core/testing/node'
import { restoreUiState, type DevtoolsUiState } from './ui-state'

// Accept fixtures of the UI state read back from localStorage (testing/fixtures/stored-ui-state.json):
// valid stored states and seeded random damage to them (core's `mutate`), one case for every
// distinct restored state (which fields fell back to their defaults, which keys were left out).
// They were recorded from the zod schema the state was read with before core's readers; a rule
// change is a change to the fixture (UPDATE_FIXTURES=1, then review the diff of the JSON file).

const defaults: DevtoolsUiState = {
  open: false,
  dock: 'bottom',
  size: 420,
  floating: { x: 24, y: 24, width: 720, height: 480 },
  tab: 'projection',
  filters: {},
}

describeFixtureFiles('the stored UI state: the recorded fixtures', new URL('../testing/fixtures/', import.meta.url), [
  { fixture: 'stored-ui-state', run: (stored) => ({ ok: true, value: restoreUiState(stored, defaults) }) },
])
