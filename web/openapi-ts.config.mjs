// The API client is generated from the API's own OpenAPI document (web/openapi.json, written by
// `python -m portal_api.openapi_export`): `make client` regenerates both, and
// tests/web/test_api_client.py fails when either is stale (it generates into CLIENT_OUT and compares).
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: './openapi.json',
  output: { path: process.env.CLIENT_OUT || './src/client', format: 'prettier' },
  plugins: [{ name: '@hey-api/client-axios', throwOnError: true }, '@hey-api/typescript', '@hey-api/sdk']
});
