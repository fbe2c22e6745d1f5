import { describePublicApi } from './testing/public-api-suite'

describePublicApi(new URL('../', import.meta.url))
