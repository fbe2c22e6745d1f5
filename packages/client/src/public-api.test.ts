import { describePublicApi } from '../../core/src/testing/public-api-suite'

describePublicApi(new URL('../', import.meta.url))
