// The sync engine lands in the next commits.
export {}
