// Placeholder: see README.md for what this package will hold.
export {}
