import { describeErrorMarkers } from '@threadlens/testing/node'
import * as main from './index'
import * as testing from './exports/testing'

describeErrorMarkers({ ...main, ...testing }, async () => ({ ...(await import('./index')), ...(await import('./exports/testing')) }), 11)
