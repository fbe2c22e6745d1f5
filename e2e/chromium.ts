/**
 * The one place that says which Chromium the tests drive and how it is launched.
 * Playwright's own browser download does not work on these machines; Debian's does.
 */
export const chromiumExecutable = process.env['THREADLENS_CHROMIUM'] ?? '/usr/bin/chromium'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
