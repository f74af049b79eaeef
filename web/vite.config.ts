/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API is served under /api. In development, VITE_PROXY_TARGET points the dev server
// at a running API (default http://127.0.0.1:8000).
const proxyTarget = process.env.VITE_PROXY_TARGET || 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  base: '/',
  server: {
    port: 3000,
    proxy: { '/api': { target: proxyTarget, changeOrigin: true, ws: true } }
  },
  preview: { port: 3000 },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx,js,jsx}'],
    // A render test takes 5-25 s on a 2-core machine busy with other suites, some 30+ s at load 16.
    testTimeout: 90000,
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true
  }
});
