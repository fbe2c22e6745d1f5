import { describePublicApi } from '@threadlens/testing/node'

describePublicApi(new URL('../', import.meta.url))
