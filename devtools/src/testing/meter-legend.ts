/** The token meter's legend, top to bottom, for a projection without recall: each part's test id. */
export const meterLegendIds = [
  'meter-system',
  'meter-memory',
  'meter-summary',
  'meter-history',
  'meter-pending',
  'meter-tools',
  'meter-reserved',
  'meter-free',
] as const
