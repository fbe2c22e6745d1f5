import { describeErrorMarkers } from '@threadlens/testing/node'
import * as firstCopy from './index'

describeErrorMarkers(firstCopy, () => import('./index'), 3)
