// The devtools read `process.env.NODE_ENV` (as React and TanStack's devtools do) for the app's
// bundler to replace; they compile without Node's types, so only that one field is declared.
declare var process: { readonly env: { readonly NODE_ENV?: string } }
