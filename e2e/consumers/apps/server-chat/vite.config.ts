import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// `vite build` makes the page (dist/); `vite build --ssr server/main.ts --outDir dist-server` the server.
export default defineConfig({ plugins: [react()] })
