// tsdown 0.23 targets Node 22, which has `Promise.withResolvers`; Node 20 (this project's floor)
// does not. Preloaded only for the package build (`node --import ./.ci/node20-polyfills.mjs`).
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve
    let reject
    const promise = new this((resolveWith, rejectWith) => {
      resolve = resolveWith
      reject = rejectWith
    })
    return { promise, resolve, reject }
  }
}
