import { describeErrorMarkers } from '@threadlens/testing'
import * as firstCopy from './index'

describeErrorMarkers(firstCopy, () => import('./index'), 2)
