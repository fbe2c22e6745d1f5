import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Invoked from the repo root (`vite --config demo/vite.config.ts`), so the root is pinned to this folder.
const demoRoot = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: demoRoot,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The o200k_base ranks are one ~2 MB chunk, loaded lazily on purpose: do not warn about it.
    chunkSizeWarningLimit: 2500,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
